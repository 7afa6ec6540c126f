import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import type { Part } from '../support/turn-client.js';
import { servedApp } from '../support/served-app.js';
import { bubblewrapSupport } from '../../adapters/sandbox/local/bubblewrap-command.js';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import { eventually } from '../support/eventually.js';
import { HOGGING_SERVER } from '../support/sandbox-apps.js';

describe('A served app while it changes and when it crosses a limit, on the development host', function () {
  this.timeout(180_000);
  let root: string;
  let host: DevHostFixture;

  before(async function () {
    if (!bubblewrapSupport().available) this.skip();
    root = await mkdtemp(join(tmpdir(), 'porter-served-changes-'));
    const sandbox = new LocalSandbox({ root, appLimits: { memoryMb: 96, cooldownMs: 60_000, watchMs: 50 } });
    host = await devHost({ porter: { sandbox } });
  });
  after(async () => {
    await host?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('edited 20 times under steady page loads and function calls, it fails none of them', async () => {
    const ada = host.client.as('ada');
    const app = (await ada.json('POST', '/apps', { prompt: 'reading list' })).body as Part;
    await ada.json('POST', `/apps/${app.id}/edit`, { instruction: 'add a server function named shelve' });
    expect((await ada.json('POST', `/apps/${app.id}/graduate`, {})).status).to.equal(200);

    let changing = true;
    const failures: string[] = [];
    let answered = 0;
    const pages = async () => {
      while (changing) {
        const page = await fetch(`${ada.base}/apps/${app.id}/view/`, { headers: ada.headers });
        await page.arrayBuffer();
        if (page.status !== 200) failures.push(`page ${page.status}`);
        else answered++;
      }
    };
    const calls = async () => {
      while (changing) {
        const call = await ada.json('POST', `/apps/${app.id}/fn/shelve`, { book: 'Dune' });
        if (call.status !== 200) failures.push(`fn ${call.status} ${JSON.stringify(call.body)}`);
        else answered++;
      }
    };
    const load = [pages(), calls(), pages(), calls()];
    for (let edit = 1; edit <= 20; edit++) {
      const changed = await ada.json('POST', `/apps/${app.id}/edit`, { instruction: `add a server function named step${edit}` });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    }
    changing = false;
    await Promise.all(load);
    expect(failures).to.deep.equal([]);
    expect(answered).to.be.greaterThan(40);
    // The last change serves: its function answers.
    expect((await ada.json('POST', `/apps/${app.id}/fn/step20`, {})).status).to.equal(200);
  });

  it('over its memory limit it is stopped, and every request says why until its owner changes it', async () => {
    const ada = host.client.as('ada');
    const app = { id: await servedApp(ada, HOGGING_SERVER) };
    expect((await ada.json('POST', `/apps/${app.id}/fn/hello`, {})).status).to.equal(200);

    // The second call crosses 96 MiB: it and every call after it say so.
    const hogs = [];
    for (const mb of [8, 512, 8]) hogs.push(await ada.json('POST', `/apps/${app.id}/fn/hog`, { mb }));
    expect(hogs.map((hog) => hog.status)).to.deep.equal([200, 503, 503]);
    for (const hog of hogs.slice(1))
      expect(hog.body.error.details, JSON.stringify(hog.body)).to.include({ reason: 'app-limit', limit: 'memory' });
    const opened = async () => (await ada.json('GET', `/apps/${app.id}/open`)).body as Record<string, unknown>;
    expect(await eventually(async () => (await opened()).kind === 'stopped', 10_000)).to.equal(true);
    const stopped = (await opened()).stopped as { limit: string; message: string; retryAt: string };
    expect(stopped.limit).to.equal('memory');
    expect(stopped.message).to.equal('The app was stopped: it used more than its 96 MiB of memory');
    expect(Date.parse(stopped.retryAt)).to.be.greaterThan(Date.now());

    const refused = await fetch(`${ada.base}/apps/${app.id}/fn/hello`, {
      method: 'POST',
      headers: { ...ada.headers, 'content-type': 'application/json' },
      body: '{}',
    });
    const envelope = (await refused.json()) as { error: { code: string; message: string; details: Record<string, unknown> } };
    expect(refused.status).to.equal(503);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(envelope.error.code).to.equal('unavailable');
    expect(envelope.error.message).to.contain('96 MiB of memory');
    expect(envelope.error.details).to.include({ reason: 'app-limit', limit: 'memory' });
    const page = await fetch(`${ada.base}/apps/${app.id}/view/`, { headers: ada.headers });
    expect(page.status).to.equal(503);

    // Its owner's change starts it again at once.
    const changed = await ada.json('POST', `/apps/${app.id}/edit`, { instruction: 'rename to Lighter notes' });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect((await ada.json('POST', `/apps/${app.id}/fn/hello`, {})).status).to.equal(200);
    expect((await opened()).kind).to.equal('http');
  });
});
