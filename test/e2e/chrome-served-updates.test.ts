import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations } from '../support/axe.js';
import { chromeSuite, say } from '../support/browser.js';
import { until } from '../support/eventually.js';
import { bubblewrapSupport } from '../../adapters/sandbox/local/bubblewrap-command.js';

describe('A served app’s frame follows its changes, says what changed and fits its content (headless Chromium, local sandbox)', function () {
  this.timeout(120_000);
  let root: string;
  const chrome = chromeSuite(async function () {
    if (!bubblewrapSupport().available) this.skip();
    root = await mkdtemp(join(tmpdir(), 'porter-served-updates-'));
    return { porter: { sandbox: { kind: 'local', root, startTimeoutMs: 10_000, appLimits: { memoryMb: 128, watchMs: 50 } } } };
  });
  after(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  for (const [name, viewport] of [
    ['desktop', undefined],
    ['phone', { width: 360, height: 740 }],
  ] as const) {
    it(`changed elsewhere, the open frame shows the new version without a page reload and says what changed (${name})`, async () => {
      const user = name === 'desktop' ? 'tia' : 'tom';
      const { page, screenshot } = await chrome.open({ user, ...(viewport ? { viewport } : {}) });
      await say(page, '/app a todo list');
      await page.locator('.app-view[data-status="ready"] a:has-text("Open app")').click();
      await page.locator('.app-page-canvas').waitFor();
      const appId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
      await page.getByRole('button', { name: 'Serve' }).click();
      const frame = page.locator('iframe.app-frame[data-sized="content"]');
      await frame.waitFor();
      const served = page.frameLocator('iframe.app-frame');
      await served.getByLabel('Add an item').waitFor();

      // Sized to its content within the page column: no fixed 720px box of empty space, and as wide as the column.
      // The frame follows its content a message later (the app page reports its size as it renders).
      const contentBottom = () => served.locator('#app').evaluate((main) => main.getBoundingClientRect().bottom);
      const sized = await until(
        async () => ({ box: (await frame.boundingBox())!, content: await contentBottom() }),
        ({ box, content }) => box.height >= content && box.height <= content + 80,
        { what: 'the frame sized to its content' },
      );
      const { box } = sized;
      expect(box.height).to.be.below(720);
      const column = (await page.locator('form.edit-box').boundingBox())!;
      expect(Math.abs(box.x - column.x), 'the frame starts where the column does').to.be.below(2);
      expect(Math.abs(box.width - column.width), 'and is as wide').to.be.below(2);

      // Changed from somewhere else (a conversation, another tab): this page was not reloaded.
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      const edited = await chrome.host.client.as(user).json('POST', `/apps/${appId}/edit`, { instruction: 'Remember the milk' });
      expect(edited.status).to.equal(200);
      const notice = page.locator('.app-updated');
      await notice.waitFor();
      // Serving it was this page's own change: said once, by the page, not again as an update.
      expect(await notice.textContent()).to.not.include('own server');
      expect(await notice.textContent()).to.equal('Updated just now — Remember the milk');
      await served.locator('text=Remember the milk').waitFor();
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).to.equal(true);
      await page.locator('iframe.app-frame[data-sized="content"]').waitFor();
      expect(await axeViolations(page), 'the app page').to.deep.equal([]);
      await screenshot(`chrome-served-updated-${name}`);
    });
  }

  it('a built tree app is usable inside the conversation: items added there are the app’s records', async () => {
    const { page } = await chrome.open({ user: 'una' });
    await say(page, '/app a todo list');
    const preview = page.locator('.app-view[data-status="ready"]');
    await preview.waitFor();
    await preview.getByLabel('Add an item').fill('From the chat');
    await preview.getByRole('button', { name: 'Add' }).click();
    await preview.locator('.app-list-item:has-text("From the chat")').waitFor();
    const appId = await preview.getAttribute('data-app-id');
    const records = (await chrome.host.client.as('una').json('GET', `/apps/${appId}/records/items`)).body.records as Array<{
      data: unknown;
    }>;
    expect(records.map((r) => r.data)).to.deep.equal([{ text: 'From the chat' }]);
    expect(await axeViolations(page), 'the conversation with the app').to.deep.equal([]);
  });
});
