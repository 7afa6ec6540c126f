import { expect } from 'chai';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { Page } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { PacedScriptedModel, chromeSuite, pendingApproval, say } from '../support/browser.js';

/**
 * The paced scripted model, except that `/down <word>` finds the model down once for each word
 * (the next try answers), and `/half` writes a few words before it goes down, every time.
 */
class FlakyModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'porter-test';
  readonly modelId = 'flaky';
  readonly supportedUrls = {};
  private readonly inner = new PacedScriptedModel(5);
  private readonly failed = new Set<string>();

  async doGenerate(): Promise<never> {
    throw new Error('streaming only');
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const last = options.prompt.at(-1);
    const text = last?.role === 'user' ? last.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : '';
    const down = /^\/down (\w+)/.exec(text)?.[1];
    if (down && !this.failed.has(down)) {
      this.failed.add(down);
      throw new Error('the model provider is unreachable');
    }
    if (text.startsWith('/half')) {
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't0' },
        { type: 'text-delta', id: 't0', delta: 'Half an answer ' },
      ];
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          // One part a pull, and the failure only once they were all read (an error drops what is queued).
          pull(controller) {
            const part = parts.shift();
            if (part) controller.enqueue(part);
            else controller.error(new Error('the model provider went away'));
          },
        }),
      };
    }
    return this.inner.doStream(options);
  }
}

/** Where the focus is: a short description of `document.activeElement` a failing test can show. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const at = document.activeElement as HTMLElement | null;
    if (!at || at === document.body) return 'body';
    return `${at.tagName.toLowerCase()}${at.id ? `#${at.id}` : ''}${at.className ? `.${String(at.className).split(' ').join('.')}` : ''}${at.getAttribute('aria-label') ? `[${at.getAttribute('aria-label')}]` : ''}`;
  });
}

/** Whether focus is inside the element `selector` finds. */
const focusWithin = (page: Page, selector: string) =>
  page.evaluate((s) => Boolean(document.querySelector(s)?.contains(document.activeElement)), selector);

describe('The shipped chrome by keyboard: shortcuts and their help, focus after every action, the phone menu, errors that say what to do (headless Chromium)', function () {
  this.timeout(180_000);
  // A failed turn is the test's doing; the AI SDK reports it on the console as well.
  const chrome = chromeSuite(() => ({ porter: { model: new FlakyModel() }, demoBroker: true }), {
    ignore: /model|provider|went away|unreachable/i,
  });

  it('shortcuts: Ctrl+/ (or ?) opens the help, a modal that keeps focus and closes on Escape; Ctrl+K searches; Ctrl+Shift+O starts a chat; Enter sends; Escape stops', async () => {
    const { page, screenshot } = await chrome.open({ user: 'kit' });
    const composer = page.getByLabel('Message', { exact: true });
    await composer.waitFor();
    expect(await focused(page)).to.contain('composer-field');

    await page.keyboard.press('Control+/');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await focusWithin(page, 'dialog[open]'), await focused(page)).to.equal(true);
    const listed = await help.locator('dd').allTextContents();
    for (const does of ['New chat', 'Search conversations', 'Send the message', 'Stop the answer'])
      expect(
        listed.some((line) => line.startsWith(does)),
        does,
      ).to.equal(true);
    expect(await help.locator('dt', { hasText: 'K' }).first().textContent()).to.match(/^(Ctrl|⌘)\+K$/);
    for (let tab = 0; tab < 4; tab++) {
      await page.keyboard.press(tab % 2 ? 'Shift+Tab' : 'Tab');
      expect(await focusWithin(page, 'dialog[open]'), `Tab ${tab + 1} leaves the dialog for ${await focused(page)}`).to.equal(true);
    }
    await screenshot('keyboard-shortcuts-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    expect(await focused(page), 'focus returns where it was').to.contain('composer-field');

    // `?` is a character in the message box, and a shortcut elsewhere.
    await composer.pressSequentially('why?');
    expect(await page.getByRole('dialog').count()).to.equal(0);
    expect(await composer.inputValue()).to.equal('why?');
    await page.locator('#main').focus();
    await page.keyboard.press('?');
    await help.waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await help.waitFor({ state: 'hidden' });
    expect(await focused(page)).to.equal('main#main.main');

    await page.keyboard.press('Control+k');
    expect(await focused(page)).to.equal('input#thread-search');

    // Enter sends; a slow answer, then Escape from outside the message box stops it.
    await composer.fill('/slow 30 a long answer that takes its time to come, word after word after word');
    await composer.press('Enter');
    await page.waitForURL(/#\/t\//);
    await page.waitForSelector('.assistant-text.streaming');
    await page.locator('#main').focus();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Send message' }).waitFor();
    await page.waitForSelector('.message.assistant[aria-busy="false"]');

    await page.keyboard.press('Control+Shift+O');
    await page.waitForURL((url) => url.hash === '#/');
    await page.waitForSelector('.home-title');
    await page.waitForFunction(() => document.activeElement?.classList.contains('composer-field'));
  });

  it('focus is moved on purpose: to the message box after Regenerate and Retry, to the decided call after Approve or Deny, back to Rename after renaming', async () => {
    const { page } = await chrome.open({ user: 'lou' });
    await say(page, 'hello there');
    await page.waitForSelector('.message.assistant[aria-busy="false"] >> text=echo: hello there');
    await page.getByRole('button', { name: 'Regenerate answer' }).click();
    // The chrome moves focus in the next frame (the button clicked is gone by then): wait for it to land.
    await page.waitForFunction(() => document.activeElement?.classList.contains('composer-field'));
    await page.waitForSelector('.message.assistant[aria-busy="false"] >> text=echo: hello there');
    expect(await focused(page)).to.contain('composer-field');

    await say(page, '/call notes_add {"text":"milk"}');
    let card = await pendingApproval(page, 'Add the note “milk”');
    await card.getByRole('button', { name: 'Approve' }).click();
    // On the verdict, then (once the call ran and its card gave way) on the call and its status.
    await page.waitForSelector('text=notes_add returned');
    await page.waitForSelector('.message.assistant[aria-busy="false"] >> text=notes_add returned');
    expect(await focusWithin(page, '.tool[data-tool="notes_add"]'), await focused(page)).to.equal(true);

    await say(page, '/call notes_clear {}');
    card = await pendingApproval(page, 'Delete all of your notes');
    await card.getByRole('button', { name: 'Deny' }).click();
    await page.waitForSelector('.tool[data-tool="notes_clear"][data-state="output-denied"]');
    await page.waitForSelector('.message.assistant[aria-busy="false"]');
    expect(await focusWithin(page, '.tool[data-tool="notes_clear"]'), await focused(page)).to.equal(true);

    await page.getByRole('button', { name: 'Rename conversation' }).click();
    await page.getByLabel('Conversation title').fill('Shopping');
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1.page-title >> text=Shopping');
    expect(await focused(page)).to.contain('[Rename conversation]');
    await page.getByRole('button', { name: 'Rename conversation' }).click();
    await page.keyboard.press('Escape');
    expect(await focused(page)).to.contain('[Rename conversation]');
  });

  it('the Approvals page hands focus to the next request once one is answered', async () => {
    const ada = chrome.host.client.as('pat');
    await ada.say(await ada.newThread(), '/call notes_add {"text":"one"}');
    await ada.say(await ada.newThread(), '/call notes_add {"text":"two"}');
    const { page } = await chrome.open({ user: 'pat' });
    await page.goto(`${chrome.host.url}/#/approvals`);
    await page.waitForFunction(() => document.querySelectorAll('.approval-card[data-approval-state="pending"]').length === 2);
    await page.locator('.approval-card').first().getByRole('button', { name: 'Deny' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.approval-card').length === 1);
    await page.waitForFunction(() => document.activeElement?.classList.contains('approval-card'));
    await page.locator('.approval-card').first().getByRole('button', { name: 'Deny' }).click();
    await page.getByText('Nothing is waiting for you').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'main');
  });

  it('the phone menu keeps focus inside while open; Escape closes it and focus returns to the menu button; Ctrl+K opens it at the search', async () => {
    const { page, screenshot } = await chrome.open({ user: 'max', viewport: { width: 360, height: 740 } });
    const menu = page.getByRole('button', { name: 'Open navigation' });
    await menu.click();
    await page.waitForSelector('.drawer-open');
    expect(await focusWithin(page, '#sidebar'), await focused(page)).to.equal(true);
    for (let tab = 0; tab < 14; tab++) {
      await page.keyboard.press('Tab');
      expect(await focusWithin(page, '#sidebar'), `Tab ${tab + 1} escapes to ${await focused(page)}`).to.equal(true);
    }
    for (let tab = 0; tab < 14; tab++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusWithin(page, '#sidebar'), `Shift+Tab ${tab + 1} escapes to ${await focused(page)}`).to.equal(true);
    }
    await screenshot('keyboard-phone-menu');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.shell:not(.drawer-open)');
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.sidebar-frame')!).visibility === 'hidden');
    expect(await focused(page)).to.equal('button.icon-button[Open navigation]');
    // Closed, nothing in the drawer can be reached by Tab.
    for (let tab = 0; tab < 6; tab++) {
      await page.keyboard.press('Tab');
      expect(await focusWithin(page, '#sidebar'), `Tab ${tab + 1} reaches the closed drawer`).to.equal(false);
    }
    await page.keyboard.press('Control+k');
    await page.waitForSelector('.drawer-open');
    await page.waitForFunction(() => document.activeElement?.id === 'thread-search');
  });

  it('on a 360 px phone, a table scrolls sideways inside its block with its words whole, and nothing is cut off', async () => {
    const { page, screenshot } = await chrome.open({ user: 'ren', viewport: { width: 360, height: 740 } });
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await page.waitForSelector('.suggestion');
    expect(await fits(), 'home').to.equal(true);
    // The message box's placeholder shows whole: nothing of it hidden past the field's edges.
    const field = page.getByLabel('Message', { exact: true });
    const clipped = () =>
      field.evaluate((element) => {
        const box = element as HTMLTextAreaElement;
        return box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
      });
    expect(await clipped(), 'the placeholder on home').to.equal(false);

    await say(
      page,
      [
        'The plan',
        '',
        '| Step | Owner | When | What it needs | Where it runs |',
        '| ---- | ----- | ---- | ------------- | ------------- |',
        '| Build | Ada Lovelace | Monday morning | A clean checkout | Continuous integration |',
      ].join('\n'),
    );
    const wrap = page.locator('.markdown .table-wrap');
    await wrap.waitFor();
    await page.waitForSelector('.message.assistant[aria-busy="false"]');
    const table = await wrap.evaluate((element) => ({
      scrolls: element.scrollWidth > element.clientWidth,
      focusable: (element as HTMLElement).tabIndex === 0,
      // Each header is one line: a word broken in two ("Ste p") would make two.
      brokenHeaders: [...element.querySelectorAll('th')]
        .filter((th) => {
          const range = document.createRange();
          range.selectNodeContents(th);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
        })
        .map((th) => th.textContent),
    }));
    expect(table).to.deep.equal({ scrolls: true, focusable: true, brokenHeaders: [] });
    expect(await fits(), 'the conversation').to.equal(true);
    expect(await clipped(), 'the placeholder in a conversation').to.equal(false);
    await screenshot('phone-table');
    for (const hash of ['#/approvals', '#/grants', '#/memories', '#/apps', '#/automations', '#/connections']) {
      await page.goto(`${chrome.host.url}/${hash}`);
      await page.waitForSelector('h1.page-title');
      expect(await fits(), hash).to.equal(true);
    }
  });

  it('a failed turn is an error: red, in the column, its cause named, Retry that answers, and no claim that anything was saved when nothing was', async () => {
    const { page, screenshot } = await chrome.open({ user: 'val' });
    await say(page, '/down once');
    const error = page.locator('.message-error[role="alert"]');
    await error.waitFor();
    const text = await error.textContent();
    expect(text).to.contain('The model failed before finishing this answer.');
    expect(text).not.to.match(/saved|kept/);
    // Red: its edge is the error colour of the scheme, and it stands within the conversation's column.
    const look = await error.evaluate((element) => {
      const style = getComputedStyle(element);
      const probe = document.createElement('span');
      probe.style.color = 'var(--bad)';
      document.body.append(probe);
      const bad = getComputedStyle(probe).color;
      probe.remove();
      const column = element.closest('.chat-column')!.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      return { edge: style.borderLeftColor === bad, inColumn: box.left >= column.left && box.right <= column.right };
    });
    expect(look).to.deep.equal({ edge: true, inColumn: true });
    expect(await page.locator('.banner.error').count(), 'said once, not twice').to.equal(0);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      // The page's theme follows the system's on its change event; colours fade across (transitions).
      await page.waitForFunction(
        (scheme) => document.documentElement.dataset.theme === scheme && document.getAnimations().length === 0,
        colorScheme,
      );
      expect(await axeViolations(page), colorScheme).to.deep.equal([]);
      await screenshot(`error-model-down-${colorScheme}`);
    }
    await error.getByRole('button', { name: 'Retry' }).click();
    expect(await focused(page)).to.contain('composer-field');
    await page.waitForSelector('.message.assistant[aria-busy="false"] >> text=echo: /down once');
    expect(await error.count()).to.equal(0);

    // With something written before the model went away, the page says it is kept.
    await say(page, '/half');
    await page.waitForSelector('.message-error >> text=What it wrote before is kept above.');
    expect(await page.locator('.message.assistant').last().locator('.markdown').textContent()).to.contain('Half an answer');
  });
});
