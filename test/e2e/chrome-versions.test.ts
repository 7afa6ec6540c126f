import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { PacedScriptedModel, chromeSuite, say } from '../support/browser.js';

const PHONE = { width: 360, height: 740 };

/** Waits until the answer is written and can be regenerated again (no turn runs). */
async function answered(page: Page): Promise<void> {
  await page.waitForSelector('.message.assistant[aria-busy="false"] .message-action[aria-label="Regenerate answer"]');
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
const threadOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);

describe('Versions kept by regenerate and edit, with a switcher, in the shipped chrome (headless Chromium)', function () {
  this.timeout(120_000);
  const chrome = chromeSuite(() => ({ porter: { model: new PacedScriptedModel(5) } }));

  for (const [size, viewport] of [
    ['desktop', undefined],
    ['phone', PHONE],
  ] as const) {
    it(`switches between regenerated answers with "‹ 2 / 3 ›"; focus stays on the switcher; a reload keeps the choice (${size})`, async () => {
      const user = `vera-${size}`;
      const { page, screenshot } = await chrome.open({ user, ...(viewport ? { viewport } : {}) });
      await page.waitForSelector(`text=Hello, ${user}.`);
      await say(page, 'which bed for tomatoes?');
      await answered(page);
      expect(await page.locator('.version-switcher').count(), 'one answer, no versions').to.equal(0);
      for (let i = 0; i < 2; i++) {
        await page.getByRole('button', { name: 'Regenerate answer' }).click();
        await answered(page);
      }
      const switcher = page.locator('.message.assistant .version-switcher');
      await switcher.filter({ hasText: 'Version 3 of 3' }).waitFor();
      expect(await switcher.locator('.version-count').textContent()).to.equal('3 / 3');
      expect(await switcher.getByRole('button', { name: 'Next version' }).getAttribute('aria-disabled')).to.equal('true');
      const owner = chrome.host.client.as(user);
      const threadId = threadOf(page);
      const stored = async () =>
        (await owner.json('GET', `/threads/${threadId}`)).body as {
          messages: Array<{ id: string }>;
          versions: Array<{ messageId: string; index: number; count: number }>;
        };
      const third = (await stored()).messages[1]!.id;

      await switcher.getByRole('button', { name: 'Previous version' }).click();
      await switcher.filter({ hasText: 'Version 2 of 3' }).waitFor();
      expect(await focused(page), 'focus stays on the switcher').to.equal('Previous version');
      const second = await stored();
      expect(second.messages[1]!.id, 'another answer is shown').to.not.equal(third);
      expect(second.versions).to.deep.equal([{ messageId: second.messages[1]!.id, index: 1, count: 3 }]);
      expect(await axeViolations(page)).to.deep.equal([]);
      await screenshot(`chrome-versions-${size}`);

      // By keyboard: Enter on the focused arrow goes on; at the first version the arrow says so and keeps focus.
      await page.keyboard.press('Enter');
      await switcher.filter({ hasText: 'Version 1 of 3' }).waitFor();
      expect(await focused(page)).to.equal('Previous version');
      expect(await switcher.getByRole('button', { name: 'Previous version' }).getAttribute('aria-disabled')).to.equal('true');

      await page.reload();
      await page.locator('.message.assistant .version-switcher', { hasText: 'Version 1 of 3' }).waitFor();
      expect((await stored()).versions[0]).to.deep.include({ index: 0, count: 3 });
    });
  }

  it('keeps the message an edit replaced: the switcher on the person’s message brings back what it said and its answer', async () => {
    const { page, screenshot } = await chrome.open({ user: 'eda' });
    await page.waitForSelector('text=Hello, eda.');
    await say(page, 'plant tomatoes');
    await answered(page);
    await page.getByRole('button', { name: 'Edit message' }).click();
    const editor = page.getByRole('textbox', { name: 'Your message' });
    await editor.fill('plant peppers');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.message.assistant:has-text("echo: plant peppers")');
    await answered(page);
    const switcher = page.locator('.message.user .version-switcher');
    await switcher.filter({ hasText: 'Version 2 of 2' }).waitFor();
    await screenshot('chrome-versions-edited');

    await switcher.getByRole('button', { name: 'Previous version' }).click();
    await page.waitForSelector('.message.assistant:has-text("echo: plant tomatoes")');
    await switcher.filter({ hasText: 'Version 1 of 2' }).waitFor();
    expect(await page.locator('.message.user .bubble').allTextContents()).to.deep.equal(['plant tomatoes']);
    expect(await focused(page)).to.equal('Previous version');
    expect(await axeViolations(page)).to.deep.equal([]);

    await switcher.getByRole('button', { name: 'Next version' }).click();
    await page.waitForSelector('.message.assistant:has-text("echo: plant peppers")');
    expect(await page.locator('.message.user .bubble').allTextContents()).to.deep.equal(['plant peppers']);
    expect(await focused(page)).to.equal('Next version');
  });
});
