import { expect } from 'chai';
import Koa from 'koa';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { chromeSuite } from '../support/browser.js';
import { serve, type RunningServer } from '../support/http-server.js';

const PAGE = fileURLToPath(new URL('../support/react-thread-page.tsx', import.meta.url));

/** The test page, bundled in development mode (StrictMode runs effects twice there). */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [PAGE],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('porter-runtime/react: usePorterThread and PorterToolPart in a host page (headless Chromium)', function () {
  this.timeout(60_000);
  // The wire answers an unknown thread 404, which the browser logs; that is the case under test.
  const chrome = chromeSuite(() => ({}), { ignore: /404/ });
  let server: RunningServer;
  let created = 0;

  before(async () => {
    const script = await bundlePage();
    const app = new Koa();
    // Counts thread creations, to see that StrictMode's second run of an effect creates none.
    app.use(async (ctx, next) => {
      if (ctx.method === 'POST' && ctx.path === '/api/porter/threads') created += 1;
      await next();
    });
    app.use(chrome.host.porter.koa);
    app.use((ctx) => {
      if (ctx.path === '/page.js') {
        ctx.type = 'text/javascript';
        ctx.body = script;
      } else if (ctx.path === '/') {
        ctx.type = 'text/html';
        ctx.body =
          '<!doctype html><html><head><title>Host chat</title></head><body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';
      }
    });
    server = await serve(app.callback());
  });

  after(async () => {
    await server?.close();
  });

  /** The thread id in the page's address once it is there. */
  async function threadInAddress(page: Page): Promise<string> {
    // history.replaceState is no navigation to wait for: watch the address itself.
    await page.waitForFunction(() => new URLSearchParams(location.search).has('thread'));
    return new URL(page.url()).searchParams.get('thread')!;
  }

  /** Sends a message from the page's composer. */
  async function say(page: Page, text: string): Promise<void> {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  const settled = (page: Page) => page.locator('main[data-status="ready"]').waitFor();

  it('creates one thread (under StrictMode too), puts its id into the address beside the other parameters, and streams an answer', async () => {
    const before = created;
    const { page } = await chrome.openAt(`${server.url}/?tab=chat#top`, { user: 'ada' });
    const threadId = await threadInAddress(page);
    const url = new URL(page.url());
    expect(url.searchParams.get('tab')).to.equal('chat');
    expect(url.hash).to.equal('#top');
    expect(await page.locator('main').getAttribute('data-thread-id')).to.equal(threadId);
    expect(created - before, 'threads created').to.equal(1);
    const stored = await chrome.host.client.as('ada').json('GET', `/threads/${threadId}`);
    expect(stored.status).to.equal(200);

    await say(page, 'hello there');
    await page.getByText('echo: hello there').waitFor();
    await settled(page);
    expect(await page.locator('[data-role="user"]').textContent()).to.equal('hello there');
  });

  it('draws an approval card with Porter’s preview and risk; Approve runs the tool and the turn carries on', async () => {
    const { page } = await chrome.openAt(`${server.url}/`, { user: 'ada' });
    await threadInAddress(page);
    await say(page, '/call notes_add {"text":"milk"}');
    const card = page.getByRole('group', { name: 'Approval needed: notes_add' });
    await card.waitFor();
    const tool = page.locator('[data-slot="porter-tool"][data-tool="notes_add"]');
    expect(await tool.getAttribute('data-state')).to.equal('approval-requested');
    expect(await tool.locator('[data-slot="porter-tool-name"]').textContent()).to.equal('notes_add');
    expect(await tool.locator('[data-section="input"] [data-slot="porter-tool-value"]').textContent()).to.contain('"text": "milk"');
    expect(await card.locator('[data-slot="porter-tool-preview"]').textContent()).to.contain('milk');
    expect(await card.locator('[data-slot="porter-tool-risk"]').textContent()).to.equal('Changes data');
    const approve = card.getByRole('button', { name: 'Approve' });
    expect(await approve.getAttribute('class')).to.equal('button primary');
    await approve.click();

    await page.locator('[data-tool="notes_add"][data-state="output-available"]').waitFor();
    await page.getByText(/notes_add returned/).waitFor();
    await settled(page);
    expect(await tool.locator('[data-section="output"]').textContent()).to.contain('milk');
    expect(await page.getByRole('group', { name: /Approval needed/ }).count()).to.equal(0);
  });

  it('a reload keeps a waiting approval card with its preview; Deny answers the call as denied, it never runs and the turn carries on', async () => {
    const { page } = await chrome.openAt(`${server.url}/`, { user: 'ada' });
    await threadInAddress(page);
    await say(page, '/call notes_add {"text":"eggs"}');
    await page.getByRole('group', { name: 'Approval needed: notes_add' }).waitFor();
    await settled(page);
    await page.reload();
    const card = page.getByRole('group', { name: 'Approval needed: notes_add' });
    await card.waitFor();
    expect(await card.locator('[data-slot="porter-tool-preview"]').textContent()).to.contain('eggs');
    await card.getByRole('button', { name: 'Deny' }).click();
    await page.locator('[data-tool="notes_add"][data-state="output-denied"]').waitFor();
    // The model is told the call was denied, and answers.
    await page.getByText('notes_add failed: Tool call execution denied.').waitFor();
    await settled(page);
    expect(await page.getByRole('group', { name: /Approval needed/ }).count()).to.equal(0);
  });

  it('after a reload during a slow answer: the same thread, its history, and the answer rejoined to its end', async () => {
    const { page } = await chrome.openAt(`${server.url}/`, { user: 'ada' });
    const threadId = await threadInAddress(page);
    await say(page, 'first words');
    await page.getByText('echo: first words').waitFor();
    await settled(page);

    await say(page, '/slow 3 one two three four five six seven eight nine ten');
    await page.getByText(/^one two/).waitFor();
    const before = created;
    await page.reload();
    await page.getByText('one two three four five six seven eight nine ten').waitFor({ timeout: 15_000 });
    await settled(page);
    expect(new URL(page.url()).searchParams.get('thread')).to.equal(threadId);
    expect(created, 'no thread created by the reload').to.equal(before);
    expect(await page.locator('[data-role="user"]').allTextContents()).to.deep.equal([
      'first words',
      '/slow 3 one two three four five six seven eight nine ten',
    ]);
    expect(await page.getByText('echo: first words').count()).to.equal(1);
  });

  it('opens a fresh thread for an id Porter does not know, says so, and puts the new id into the address', async () => {
    const { page } = await chrome.openAt(`${server.url}/?thread=no-such-thread`, { user: 'ada' });
    await page.getByRole('status').filter({ hasText: 'That conversation was not found' }).waitFor();
    const threadId = new URL(page.url()).searchParams.get('thread');
    expect(threadId).to.be.a('string').and.not.equal('no-such-thread');
    expect(await page.locator('main').getAttribute('data-thread-id')).to.equal(threadId);
    await say(page, 'a new start');
    await page.getByText('echo: a new start').waitFor();
  });

  it('opens the thread a host names itself, with its history, and leaves the address alone', async () => {
    const first = await chrome.openAt(`${server.url}/`, { user: 'ada' });
    const threadId = await threadInAddress(first.page);
    await say(first.page, 'kept by the host');
    await first.page.getByText('echo: kept by the host').waitFor();
    await settled(first.page);
    await first.close();

    const before = created;
    const { page } = await chrome.openAt(`${server.url}/?explicit=${threadId}`, { user: 'ada' });
    await page.locator(`main[data-thread-id="${threadId}"]`).waitFor();
    expect(await page.locator('[data-role="user"]').allTextContents()).to.deep.equal(['kept by the host']);
    expect(await page.getByText('echo: kept by the host').count()).to.equal(1);
    expect(new URL(page.url()).search).to.equal(`?explicit=${threadId}`);
    expect(created).to.equal(before);
  });

  it('sends its headers with every request: the thread, the turn and its approval are the signed-in person’s', async () => {
    const { page } = await chrome.openAt(`${server.url}/?as=bo`);
    const threadId = await threadInAddress(page);
    expect((await chrome.host.client.as('bo').json('GET', `/threads/${threadId}`)).status).to.equal(200);
    expect((await chrome.host.client.as('ada').json('GET', `/threads/${threadId}`)).status).to.equal(404);
    await say(page, '/call notes_add {"text":"bread"}');
    await page.getByRole('group', { name: 'Approval needed: notes_add' }).getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/notes_add returned/).waitFor();
  });

  it('newThread() switches to an empty thread and the address follows', async () => {
    const { page } = await chrome.openAt(`${server.url}/`, { user: 'ada' });
    const first = await threadInAddress(page);
    await say(page, 'in the first');
    await page.getByText('echo: in the first').waitFor();
    await settled(page);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.waitForFunction((first) => new URLSearchParams(location.search).get('thread') !== first, first);
    await page.locator(`main[data-thread-id="${new URL(page.url()).searchParams.get('thread')}"]`).waitFor();
    expect(await page.locator('[data-role]').count()).to.equal(0);
  });
});
