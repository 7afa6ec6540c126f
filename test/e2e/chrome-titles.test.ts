import { expect } from 'chai';
import { axeViolations } from '../support/axe.js';
import { chromeSuite, say } from '../support/browser.js';

const PHONE = { width: 360, height: 740 };

describe('Short thread titles, jump to latest and the colour scheme switch in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  const chrome = chromeSuite();

  it('lists a new conversation under a short generated title: no command, no Markdown', async () => {
    const { page, screenshot } = await chrome.open({ user: 'tia' });
    await page.waitForSelector('text=Hello, tia.');
    await say(page, '/slow 1 # Release plan for the spring launch with **all** the teams');
    // The development host's scripted model answers the title call with the message's first six plain words.
    const title = page.locator('.thread-link.current .thread-title');
    await page.waitForFunction(
      () => document.querySelector('.thread-link.current .thread-title')?.textContent === 'Release plan for the spring launch',
    );
    expect(await title.textContent()).to.not.match(/\/slow|\*\*|#/);
    await screenshot('chrome-short-title');
  });

  for (const [size, viewport] of [
    ['desktop', undefined],
    ['phone', PHONE],
  ] as const) {
    it(`offers “Jump to latest” in a long conversation scrolled up, by keyboard too; gone at the bottom (${size})`, async () => {
      const { page, screenshot } = await chrome.open({ user: `jo-${size}`, ...(viewport ? { viewport } : {}) });
      await page.waitForSelector('text=Hello');
      const lines = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long note.`).join('\n\n');
      await say(page, lines);
      await page.waitForSelector('.message.assistant[aria-busy="false"]');
      const jump = page.getByRole('button', { name: 'Jump to latest' });
      expect(await jump.count(), 'at the bottom, no button').to.equal(0);

      await page.locator('.chat-scroll').evaluate((element) => element.scrollTo({ top: 0 }));
      await jump.waitFor();
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(`chrome-jump-to-latest-${size}`);
      // Reached from the message box with Shift+Tab, pressed with Enter.
      await page.getByLabel('Message', { exact: true }).focus();
      for (let i = 0; i < 6 && !(await jump.evaluate((element) => element === document.activeElement)); i++) {
        await page.keyboard.press('Shift+Tab');
      }
      expect(await jump.evaluate((element) => element === document.activeElement), 'the button takes the focus').to.equal(true);
      await page.keyboard.press('Enter');
      await jump.waitFor({ state: 'detached' });
      const left = await page
        .locator('.chat-scroll')
        .evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
      expect(left).to.be.below(2);
      // Focus goes back to the message box, in the frame after the button went.
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message');
    });
  }

  it('cycles System, Light and Dark; the choice is kept across reloads and painted before the app runs; nothing for axe in either', async () => {
    const { page, screenshot } = await chrome.open({ user: 'kit', colorScheme: 'light' });
    await page.waitForSelector('text=Hello, kit.');
    const scheme = () => page.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor]);
    const toggle = page.getByTestId('theme-switch');
    expect(await toggle.textContent()).to.equal('Theme: System');
    expect(await scheme()).to.deep.equal(['light', 'rgb(255, 255, 255)']);

    await page.getByRole('button', { name: 'Theme: System' }).click();
    await page.getByRole('button', { name: 'Theme: Light' }).click();
    await page.getByRole('button', { name: 'Theme: Dark' }).waitFor();
    expect(await scheme()).to.deep.equal(['dark', 'rgb(19, 19, 22)']);
    expect(await axeViolations(page)).to.deep.equal([]);
    await screenshot('chrome-theme-dark');

    // Kept: the next load is dark from its first paint, even with the app's script never loaded.
    await page.route('**/assets/*.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
    await page.reload();
    await page.waitForLoadState('domcontentloaded');
    expect(await scheme()).to.deep.equal(['dark', 'rgb(19, 19, 22)']);
    expect(await page.locator('#root').innerHTML(), 'the app never ran').to.equal('');
    await page.unroute('**/assets/*.js');
    await page.reload();
    await page.getByRole('button', { name: 'Theme: Dark' }).click();
    await page.getByRole('button', { name: 'Theme: System' }).waitFor();
    expect(await scheme()).to.deep.equal(['light', 'rgb(255, 255, 255)']);

    // Light chosen on a dark system stays light, and axe finds nothing there either.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.getByRole('button', { name: 'Theme: System' }).click();
    await page.getByRole('button', { name: 'Theme: Light' }).waitFor();
    expect(await scheme()).to.deep.equal(['light', 'rgb(255, 255, 255)']);
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.reload();
    await page.getByRole('button', { name: 'Theme: Light' }).waitFor();
    expect(await scheme()).to.deep.equal(['light', 'rgb(255, 255, 255)']);
  });

  it('edits an earlier message: the conversation goes back to it, here and as stored', async () => {
    const { page, screenshot } = await chrome.open({ user: 'eda' });
    await page.waitForSelector('text=Hello, eda.');
    const idle = '.message.assistant[aria-busy="false"] .message-action[aria-label="Regenerate answer"]';
    for (const text of ['first question', 'second question']) {
      await say(page, text);
      await page.waitForSelector(`.message.assistant:has-text("echo: ${text}")`);
      await page.waitForSelector(idle);
    }
    const edits = page.getByRole('button', { name: 'Edit message' });
    expect(await edits.count(), 'every message of the person can be edited').to.equal(2);
    await edits.first().click();
    const editor = page.getByRole('textbox', { name: 'Your message' });
    expect(await editor.inputValue()).to.equal('first question');
    await editor.fill('a better first question');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.message.assistant:has-text("echo: a better first question")');
    await page.waitForSelector(idle);
    const shown = async () => page.locator('.message .bubble, .message.assistant .assistant-text').allTextContents();
    expect(await shown()).to.deep.equal(['a better first question', 'echo: a better first question']);
    await screenshot('chrome-edit-earlier-message');
    await page.reload();
    await page.waitForSelector('.message.assistant:has-text("echo: a better first question")');
    expect(await shown(), 'the server kept the same').to.deep.equal(['a better first question', 'echo: a better first question']);
  });

  it('shows the switch in the phone menu, where it works the same', async () => {
    const { page } = await chrome.open({ user: 'pip', viewport: PHONE, colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('button', { name: 'Theme: System' }).click();
    await page.getByRole('button', { name: 'Theme: Light' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).to.equal('light');
    expect(await axeViolations(page)).to.deep.equal([]);
  });
});
