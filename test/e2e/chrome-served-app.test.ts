import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromeSuite } from '../support/browser.js';
import { until } from '../support/eventually.js';
import { HOSTILE_URLS, hostileLinksDocument } from '../support/hostile-urls.js';
import { ZipAppArchive } from '../../adapters/apps/zip-app-archive.js';
import { servedApp } from '../support/served-app.js';
import { bubblewrapSupport } from '../../adapters/sandbox/local/bubblewrap-command.js';

describe('A tree app graduated to a served app keeps its data and behaviour (headless Chromium, local sandbox)', function () {
  this.timeout(180_000);
  let root: string;
  const chrome = chromeSuite(async function () {
    if (!bubblewrapSupport().available) this.skip();
    root = await mkdtemp(join(tmpdir(), 'porter-served-chrome-'));
    return { porter: { sandbox: { kind: 'local', root, startTimeoutMs: 10_000, appLimits: { memoryMb: 128, watchMs: 50 } } } };
  });

  after(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('opens the todo app, adds items, serves it, and uses it served: the same items, and Add still works', async () => {
    const { page, screenshot } = await chrome.open({ user: 'tia' });
    await page.getByLabel('Message', { exact: true }).fill('/app a todo list');
    await page.keyboard.press('Enter');
    await page.locator('.app-view[data-status="ready"] a:has-text("Open app")').click();

    const tree = page.locator('.app-page-canvas');
    await tree.locator('text=Nothing yet').waitFor();
    for (const item of ['Buy bread', 'Call Sam', 'Water plants']) {
      await tree.getByLabel('Add an item').fill(item);
      await tree.getByRole('button', { name: 'Add' }).click();
      await tree.locator(`.app-list-item:has-text("${item}")`).waitFor();
    }
    const appId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);

    await page.getByRole('button', { name: 'Serve' }).click();
    await page.waitForSelector('text=The app now runs on its own server.');
    const served = page.frameLocator('iframe.app-frame');
    for (const item of ['Buy bread', 'Call Sam', 'Water plants']) await served.locator(`.item:has-text("${item}")`).waitFor();
    await screenshot('chrome-served-app');

    await served.getByLabel('Add an item').fill('Post the letter');
    await served.getByRole('button', { name: 'Add' }).click();
    await served.locator('.item:has-text("Post the letter")').waitFor();
    expect(await served.getByLabel('Add an item').inputValue(), 'the field is cleared for the next one').to.equal('');
    const records = (await chrome.host.client.as('tia').json('GET', `/apps/${appId}/records/items`)).body.records as Array<{
      data: unknown;
    }>;
    expect(records.map((r) => r.data)).to.have.deep.members([
      { text: 'Buy bread' },
      { text: 'Call Sam' },
      { text: 'Water plants' },
      { text: 'Post the letter' },
    ]);

    // The served page follows the chrome's colour scheme.
    const background = () => served.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    await until(background, (color) => color === 'rgb(19, 19, 22)', { what: 'the served page to turn dark' });
    expect(light).to.equal('rgb(255, 255, 255)');
    const pageBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(pageBackground, 'the chrome around it is dark too').to.equal('rgb(19, 19, 22)');
    await screenshot('chrome-served-app-dark');
  });

  it('draws a hostile document’s links and images in the served page by the same rule: no javascript:, vbscript: or data: link', async () => {
    const tia = chrome.host.client.as('tia');
    const imported = await fetch(`${tia.base}/apps/import`, {
      method: 'POST',
      headers: { ...tia.headers, 'content-type': 'application/vnd.porter.app' },
      body: Buffer.from(new ZipAppArchive().pack(hostileLinksDocument())),
    });
    const app = (await imported.json()) as { id: string };
    expect((await tia.json('POST', `/apps/${app.id}/graduate`, {})).status).to.equal(200);
    const { page } = await chrome.open({ user: 'tia' });
    await page.goto(`${chrome.host.url}/#/apps/${app.id}`);
    const frame = page.frameLocator('iframe.app-frame');
    await frame.locator(`text=hostile link ${HOSTILE_URLS.length - 1}`).waitFor();
    const urls = await frame
      .locator('body')
      .evaluate(() => [
        ...Array.from(document.querySelectorAll('a[href]'), (a) => a.getAttribute('href')!),
        ...Array.from(document.querySelectorAll('img[src]'), (img) => img.getAttribute('src')!),
      ]);
    expect(urls.length).to.be.greaterThan(0);
    for (const url of urls) {
      const scheme = new URL(url, 'https://app.invalid/').protocol;
      expect(
        scheme === 'https:' || scheme === 'http:' || (scheme === 'data:' && /^data:image\/(png|jpeg|gif|webp)[;,]/.test(url)),
        `${JSON.stringify(url)} follows ${scheme}`,
      ).to.equal(true);
    }
  });

  it('answers only the framed page, and only for its own app: records of another app stay out of reach', async () => {
    const tia = chrome.host.client.as('tia');
    const other = (await tia.json('POST', '/apps', { prompt: 'a secret notes list' })).body;
    expect((await tia.json('PUT', `/apps/${other.id}/records/items`, { data: { text: 'secret' } })).status).to.equal(201);
    const { page } = await chrome.open({ user: 'tia' });
    const apps = (await tia.json('GET', '/apps')).body.apps as Array<{ id: string; ui: string; title: string }>;
    const servedApp = apps.find((a) => a.ui === 'http' && a.title === 'A todo list')!;
    await page.goto(`${chrome.host.url}/#/apps/${servedApp.id}`);
    const frame = page.frameLocator('iframe.app-frame');
    await frame.locator('.item').first().waitFor();
    // The page asks its frame for another app's records by a crafted name: the bridge builds every
    // path under this app's own id, so what comes back is this app's (or an error), never the other's.
    const answer = await frame.locator('body').evaluate(
      (_body, otherId) =>
        new Promise((resolve) => {
          window.addEventListener('message', (event) => {
            if ((event.data as { id?: number }).id === 999) resolve(event.data);
          });
          window.parent.postMessage(
            { porter: 'porter-app-bridge', v: 1, id: 999, op: 'records.list', collection: `../../${otherId}/records/items` },
            '*',
          );
        }),
      other.id,
    );
    expect(answer).to.deep.include({ ok: false });
    expect(JSON.stringify(answer)).to.not.contain('secret');
  });

  it('shows why a served app was stopped when it crossed its memory limit, and that it may start again', async () => {
    const tia = chrome.host.client.as('tia');
    const hog = `const kept = []; require('node:http').createServer((q, r) => { if (q.url === '/fn/hog') for (let i = 0; i < 4; i++) kept.push(Buffer.alloc(16 * 1024 * 1024, 1)); r.end('{}'); }).listen(Number(process.env.PORT), process.env.HOST);`;
    const app = { id: await servedApp(tia, hog) };
    for (let call = 0; call < 3; call++) await tia.json('POST', `/apps/${app.id}/fn/hog`, {});
    const { page, screenshot } = await chrome.open({ user: 'tia' });
    await page.goto(`${chrome.host.url}/#/apps/${app.id}`);
    const alert = page.locator('.banner.error[role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).to.contain('The app was stopped: it used more than its 128 MiB of memory');
    expect(await alert.getByRole('button', { name: 'Try again' }).isVisible()).to.equal(true);
    expect(await page.locator('iframe.app-frame').count(), 'no frame of a server that is not there').to.equal(0);
    await screenshot('chrome-served-app-stopped');
  });
});
