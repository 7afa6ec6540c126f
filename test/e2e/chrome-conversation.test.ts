import { expect } from 'chai';
import { until } from '../support/eventually.js';
import { devHost } from '../support/dev-host-fixture.js';
import { PacedScriptedModel, chromeSuite, say, type ChromeSession } from '../support/browser.js';

describe('Conversations in the shipped chrome: Markdown, message actions, progress, keyboard approval (headless Chromium)', function () {
  this.timeout(120_000);
  const chrome = chromeSuite(() => ({ porter: { model: new PacedScriptedModel(15) } }));

  const open = (user: string, options: { colorScheme?: 'light' | 'dark' } = {}): Promise<ChromeSession & { errors: string[] }> =>
    chrome.open({ user, ...options });

  it('renders the answer as GitHub-flavoured Markdown: bold, links, lists, tables and highlighted code; never the model’s HTML', async () => {
    const { page, screenshot } = await open('mia');
    await page.waitForSelector('text=Hello, mia.');
    const markdown = [
      'Some **bold** words, ~~struck~~ and a [link](https://example.com/docs).',
      '',
      '- first item',
      '- second item',
      '',
      '| Plant | Bed |',
      '| --- | --- |',
      '| Tomato | North |',
      '',
      '```ts',
      'const answer: number = 42;',
      '```',
      '',
      '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b>raw</b>',
    ].join('\n');
    await say(page, markdown);
    const answer = page.locator('.message.assistant .markdown').last();
    await page.waitForSelector('.message.assistant .markdown table');
    await page.waitForSelector('.message.assistant[aria-busy="false"]');
    expect(await answer.locator('strong').first().textContent()).to.equal('bold');
    expect(await answer.locator('del').textContent()).to.equal('struck');
    const link = answer.locator('a', { hasText: 'link' });
    expect(await link.getAttribute('href')).to.equal('https://example.com/docs');
    expect(await link.getAttribute('target')).to.equal('_blank');
    expect(await link.getAttribute('rel')).to.contain('noopener');
    expect(await answer.locator('ul > li').allTextContents()).to.deep.equal(['first item', 'second item']);
    expect(await answer.locator('td').allTextContents()).to.deep.equal(['Tomato', 'North']);
    const code = page.locator('.message.assistant .code-block[data-language="ts"]');
    expect(await code.locator('code').textContent()).to.equal('const answer: number = 42;\n');
    expect(await code.locator('.hljs-keyword').first().textContent(), 'the code is highlighted').to.equal('const');
    expect(await code.locator('.hljs-number').textContent()).to.equal('42');
    // The model's HTML is dropped: no element made from it, nothing run.
    expect(await answer.locator('img, script, b').count()).to.equal(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).to.equal(undefined);
    await screenshot('chrome-markdown');
  });

  it('renders Markdown while it streams: an open **bold** already reads as bold', async () => {
    const slow = await devHost({ porter: { model: new PacedScriptedModel(150) } });
    const session = await chrome.openAt(slow.url, { user: 'noa' });
    try {
      const { page } = session;
      await say(page, 'one **two three four five six seven eight nine ten eleven** twelve');
      await page.waitForSelector('.assistant-text.streaming .markdown strong');
      const whileStreaming = await page.locator('.assistant-text.streaming .markdown').textContent();
      expect(whileStreaming, 'the asterisks are not shown mid-stream').to.not.contain('**');
      await page.waitForSelector('.message.assistant[aria-busy="false"]');
    } finally {
      await slow.close();
    }
  });

  it('copies an answer, regenerates it in place, and edits and resends the last message', async () => {
    const { page, context, screenshot } = await open('ole');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: chrome.host.url });
    await say(page, 'first question');
    await page.waitForSelector('.message.assistant[aria-busy="false"] .message-action[aria-label="Regenerate answer"]');
    await page.getByRole('button', { name: 'Copy message' }).last().click();
    await page.waitForSelector('.message.assistant .message-action[aria-label="Copied"]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal('echo: first question');

    const threadId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
    const ole = chrome.host.client.as('ole');
    const before = (await ole.json('GET', `/threads/${threadId}`)).body.messages as Array<{ id: string }>;
    await page.getByRole('button', { name: 'Regenerate answer' }).click();
    // Stored first, then shown idle: the answer before it is idle too until the new one starts.
    const regenerated = await until(
      async () => (await ole.json('GET', `/threads/${threadId}`)).body.messages as Array<{ id: string }>,
      (messages) => messages.length === 2 && messages[1]!.id !== before[1]!.id,
      { timeoutMs: 20_000, what: 'the regenerated answer to be stored' },
    );
    await page.waitForSelector('.message.assistant[aria-busy="false"] .message-action[aria-label="Regenerate answer"]');
    expect(await page.locator('.message.assistant').count(), 'the answer is replaced, not added to').to.equal(1);
    expect(regenerated).to.have.length(2);

    await page.getByRole('button', { name: 'Edit message' }).click();
    const editor = page.getByRole('textbox', { name: 'Your message' });
    await editor.waitFor();
    expect(await editor.inputValue()).to.equal('first question');
    await screenshot('chrome-edit-message');
    await editor.fill('a better question');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.message.assistant:has-text("echo: a better question")');
    await page.waitForSelector('.message.assistant[aria-busy="false"] .message-action[aria-label="Regenerate answer"]');
    // The message the edit replaced is kept as an earlier version (chrome-versions.test.ts switches to it).
    await page.locator('.message.user .version-switcher', { hasText: 'Version 2 of 2' }).waitFor();
    expect(await page.locator('.message.user').allTextContents()).to.deep.equal(['a better question2 / 2Version 2 of 2CopyEdit']);
    const stored = (await ole.json('GET', `/threads/${threadId}`)).body.messages as Array<{
      role: string;
      parts: Array<{ text?: string }>;
    }>;
    expect(stored.map((m) => m.parts.find((p) => p.text)?.text)).to.deep.equal(['a better question', 'echo: a better question']);
  });

  it('shows what a running tool says about its progress, with the time it has taken', async () => {
    const { page, screenshot } = await open('pia');
    // Six steps of 0.9 s: on a busy machine the page may first see the call a step or two late,
    // and its clock must still tick past a second before the call is done.
    await say(page, '/call notes_report {"steps":6}');
    const progress = page.locator('.tool[data-tool="notes_report"] .tool-progress');
    await progress.waitFor();
    await page.waitForSelector('.tool-progress-label:has-text("step 2 of 6")');
    await page.waitForFunction(() => /^[1-9]\d*s$/.test(document.querySelector('.tool-progress-time')?.textContent ?? ''));
    expect(await page.locator('.tool-progress-bar').count(), 'the tool says how far along it is').to.equal(1);
    await screenshot('chrome-tool-progress');
    await page.waitForSelector('.tool[data-tool="notes_report"][data-state="output-available"]');
    expect(await progress.count(), 'the progress goes once the call is done').to.equal(0);
  });

  it('approves a parked call with the keyboard alone: Tab to Approve, then Enter', async () => {
    const { page, screenshot } = await open('kai');
    await say(page, '/call notes_add {"text":"by keyboard"}');
    await page.waitForSelector('.approval-card[data-approval-state="pending"]');
    await page.waitForSelector('.message.assistant[aria-busy="false"]');
    // From the composer, back through the page until the card's Approve button has focus.
    let focused = '';
    for (let presses = 0; presses < 12 && focused !== 'Approve'; presses++) {
      await page.keyboard.press('Shift+Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    }
    expect(focused, 'Approve is reachable by Tab').to.equal('Approve');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline, 'focus is visible').to.not.equal('none');
    await screenshot('chrome-keyboard-approve');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.tool[data-tool="notes_add"][data-state="output-available"]');
    expect((await chrome.host.client.as('kai').json('GET', '/approvals')).body.approvals).to.deep.equal([]);
  });
});
