import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devHost, sharedDevHost } from '../support/dev-host-fixture.js';
import { hostComponents } from '../support/apps-pins.js';
import { toolPart, type Part, type WireClient } from '../support/turn-client.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import { syncPins } from '../../composition/apps-sync.js';
import { scratchFolder } from '../support/scratch-folder.js';
import { RecordingLanguageModel } from '../support/recording-model.js';
import { tinyDocument } from '../support/apps-documents.js';

describe('Generated apps through the development host', function () {
  this.timeout(60_000);
  let host: DevHost & { client: WireClient };
  let ada: WireClient;

  sharedDevHost((started) => ({ host, ada } = started));

  it('streams /app views under one stable part id (stock AI SDK reader), then lists, opens, edits, exports and imports it', async () => {
    const thread = await ada.newThread();
    const turn = await ada.say(thread, '/app a grocery list for the week');
    const call = toolPart(turn.message, 'porter_apps_create')!;
    expect(call.state).to.equal('output-available');
    const appId = call.output.appId as string;
    const viewChunks = turn.chunks.filter((c) => c.type === 'data-porter-view') as Part[];
    expect(viewChunks.length).to.be.greaterThan(3);
    expect(new Set(viewChunks.map((c) => c.id))).to.deep.equal(new Set([`porter-view:${appId}`]));
    expect(Object.values(viewChunks[1]!.data.nodes as Record<string, Part>).some((n) => n.pending)).to.equal(true);
    const views = turn.message.parts.filter((p) => p.type === 'data-porter-view') as Part[];
    expect(views, 'the reader replaced the view in place').to.have.length(1);
    expect(views[0]!.data.status).to.equal('ready');

    const listed = await ada.json('GET', '/apps');
    expect(listed.body.apps.map((a: Part) => a.id)).to.deep.equal([appId]);
    const opened = await ada.json('GET', `/apps/${appId}/open`);
    expect(opened.body).to.deep.include({ kind: 'tree', pinDrift: null });
    expect(opened.body.payload.document.title).to.equal('A grocery list for the week');

    const edit = await ada.say(thread, `/edit ${appId} remember to buy oat milk`);
    expect(toolPart(edit.message, 'porter_apps_edit')!.state, 'a tree edit of her own app runs without asking').to.equal(
      'output-available',
    );
    const viaHttp = await ada.json('POST', `/apps/${appId}/edit`, { instruction: 'rename to Weekly shop' });
    expect(viaHttp.status).to.equal(200);
    expect(viaHttp.body).to.deep.include({ driftedPins: [] });
    expect(viaHttp.body.app.title).to.equal('Weekly shop');
    const versions = await ada.json('GET', `/apps/${appId}/versions`);
    expect(versions.body.versions.map((v: Part) => v.change)).to.deep.equal(['edit', 'edit', 'create']);

    const exported = await ada.send('GET', `/apps/${appId}/export`);
    expect(exported.headers.get('content-type')).to.equal('application/vnd.porter.app');
    const bytes = new Uint8Array(await exported.arrayBuffer());
    const wrongType = await fetch(`${ada.base}/apps/import`, {
      method: 'POST',
      headers: { ...ada.headers, 'content-type': 'application/zip' },
      body: bytes,
    });
    expect(wrongType.status).to.equal(415);
    expect((await wrongType.json()).error.code).to.equal('unsupported-media-type');
    const imported = await fetch(`${ada.base}/apps/import`, {
      method: 'POST',
      headers: { ...ada.headers, 'content-type': 'application/vnd.porter.app', cookie: 'porter_demo_user=ada' },
      body: bytes,
    });
    expect(imported.status).to.equal(201);
    const copy = (await imported.json()) as Part;
    expect(copy.id).to.not.equal(appId);
    expect(copy.title).to.equal('Weekly shop');
    const tooBig = await fetch(`${ada.base}/apps/import`, {
      method: 'POST',
      headers: { ...ada.headers, 'content-type': 'application/vnd.porter.app' },
      body: new Uint8Array(9 * 1024 * 1024),
    });
    expect(tooBig.status).to.equal(413);
    expect((await tooBig.json()).error.code).to.equal('payload-too-large');
  });

  it('asks before an edit that needs server code, and hides apps from other people', async () => {
    const thread = await ada.newThread();
    const appId = toolPart((await ada.say(thread, '/app habit tracker')).message, 'porter_apps_create')!.output.appId as string;
    const parked = await ada.say(thread, `/edit ${appId} add a server function named streak`);
    expect(toolPart(parked.message, 'porter_apps_edit')!.state).to.equal('approval-requested');
    const bob = host.client.as('bob');
    for (const [method, path] of [
      ['GET', `/apps/${appId}`],
      ['GET', `/apps/${appId}/open`],
      ['GET', `/apps/${appId}/records/habits`],
      ['DELETE', `/apps/${appId}`],
    ] as const) {
      expect((await bob.json(method, path)).status, `${method} ${path}`).to.equal(404);
    }
  });

  it('round-trips records and blobs (JSON-only writes under the CSRF floor) and removes them with the app', async () => {
    const app = (await ada.json('POST', '/apps', { prompt: 'todo list' })).body;
    expect(app.id).to.match(/^app_/);
    const created = await ada.json('PUT', `/apps/${app.id}/records/items`, { data: { text: 'water plants', done: false } });
    expect(created.status).to.equal(201);
    expect(
      (await ada.json('PUT', `/apps/${app.id}/records/items/${created.body.id}`, { data: { text: 'water plants', done: true } })).status,
    ).to.equal(200);
    const listed = await ada.json('GET', `/apps/${app.id}/records/items`);
    expect(listed.body.records.map((r: Part) => r.data)).to.deep.equal([{ text: 'water plants', done: true }]);

    const png = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
    expect(
      (await ada.json('PUT', `/apps/${app.id}/blobs/icon.png`, { contentType: 'image/png', data: png.toString('base64') })).status,
    ).to.equal(200);
    const blob = await ada.send('GET', `/apps/${app.id}/blobs/icon.png`);
    expect(blob.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await blob.arrayBuffer()).equals(png)).to.equal(true);
    const formPut = await fetch(`${ada.base}/apps/${app.id}/blobs/icon.png`, {
      method: 'PUT',
      headers: { cookie: 'porter_demo_user=ada', 'content-type': 'image/png' },
      body: png,
    });
    expect(formPut.status, 'a cookie-authenticated raw PUT is refused by the CSRF floor').to.equal(415);

    expect((await ada.json('DELETE', `/apps/${app.id}`)).status).to.equal(204);
    expect((await ada.json('GET', `/apps/${app.id}/records/items`)).status).to.equal(404);
  });

  it("moves an anonymous visitor's apps and records to the person who signs in", async () => {
    const first = await fetch(`${host.client.base}/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'journal' }),
    });
    const cookie = first.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const app = (await first.json()) as Part;
    const put = await fetch(`${host.client.base}/apps/${app.id}/records/entries/day1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ data: 'sunny' }),
    });
    expect(put.status).to.equal(201);
    const blob = await fetch(`${host.client.base}/apps/${app.id}/blobs/cover.txt`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ contentType: 'text/plain', data: Buffer.from('a sunny day').toString('base64') }),
    });
    expect(blob.status).to.equal(200);
    const signedIn = await fetch(`${host.client.base}/apps`, { headers: { cookie: `${cookie}; porter_demo_user=carol` } });
    expect(((await signedIn.json()) as Part).apps.map((a: Part) => a.id)).to.deep.equal([app.id]);
    const carol = host.client.as('carol');
    expect((await carol.json('GET', `/apps/${app.id}/records/entries/day1`)).body.data).to.equal('sunny');
    expect(await (await carol.send('GET', `/apps/${app.id}/blobs/cover.txt`)).text()).to.equal('a sunny day');
    expect(
      (await fetch(`${host.client.base}/apps/${app.id}`, { headers: { cookie } })).status,
      'the anonymous session no longer holds it',
    ).to.equal(404);
  });
});

describe('Pins through the development host and `porter sync`', function () {
  this.timeout(60_000);
  let host: DevHost & { client: WireClient };
  let components: Awaited<ReturnType<typeof hostComponents>>;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    components = await hostComponents('pricing');
    folder = await mkdtemp(join(tmpdir(), 'porter-apps-e2e-'));
    env = { PORTER_DATABASE_URL: `sqlite:${join(folder, 'porter.db')}` };
    host = await devHost({ env, porter: { pins: components.manifestFile } });
  });

  after(async () => {
    await host.close();
    await components.remove();
    await rm(folder, { recursive: true, force: true });
  });

  it('seeds a fork, shows its drift after the host changes and sync runs, and rebases into one version on ask', async () => {
    const ada = host.client.as('ada');
    const fork = await ada.json('POST', '/apps/seed', { slot: 'pricing', instruction: 'add a note about VAT' });
    expect(fork.status).to.equal(201);
    const appId = fork.body.id as string;
    expect((await ada.json('GET', '/apps/placements?slots=pricing,footer')).body.placements).to.deep.equal([
      { slot: 'pricing', appId, version: fork.body.version, drifted: false },
      { slot: 'footer', appId: null, version: null, drifted: false },
    ]);
    expect((await ada.json('POST', `/apps/${appId}/rebase`, { slot: 'pricing' })).status, 'nothing to rebase yet').to.equal(409);

    await components.change('Pricing, new');
    const report = await syncPins(
      { development: true, logger: 'silent', pins: components.manifestFile, secret: 'a-development-secret-for-the-tests-0123456789' },
      { ...env, NODE_ENV: 'development' },
    );
    expect(report.drifted.map((d) => d.appId)).to.deep.equal([appId]);

    const opened = await ada.json('GET', `/apps/${appId}/open`);
    expect(opened.body.pinDrift).to.deep.include({ slot: 'pricing' });
    expect(opened.body.payload.document.title, 'nothing rebased by itself').to.equal('Pricing');
    const edited = await ada.json('POST', `/apps/${appId}/edit`, { instruction: 'add a footnote' });
    expect(edited.body.driftedPins).to.have.length(1);

    const rebased = await ada.json('POST', `/apps/${appId}/rebase`, { slot: 'pricing' });
    expect(rebased.status).to.equal(200);
    expect(rebased.body.app).to.deep.include({ title: 'Pricing, new', drifted: false });
    const versions = (await ada.json('GET', `/apps/${appId}/versions`)).body.versions as Part[];
    expect(versions.map((v) => v.change)).to.deep.equal(['rebase', 'edit', 'seed']);
    expect((await ada.json('GET', `/apps/${appId}/open`)).body.pinDrift).to.equal(null);
  });
});

describe('Graduation through the development host', function () {
  this.timeout(60_000);
  const root = scratchFolder('porter-e2e-sandboxes-');

  it('serves POST /fn/<name> from the local sandbox, and a broken server leaves the previous version serving', async () => {
    const host = await devHost({ porter: { sandbox: { kind: 'local', root: root.path(), startTimeoutMs: 3_000 } } });
    try {
      const ada = host.client.as('ada');
      expect((await ada.json('GET', '/status')).body.blocks.sandbox).to.equal('custom');
      const app = (await ada.json('POST', '/apps', { prompt: 'reading list' })).body;
      await ada.json('POST', `/apps/${app.id}/edit`, { instruction: 'add a server function named shelve' });
      const graduated = await ada.json('POST', `/apps/${app.id}/graduate`, {});
      expect(graduated.status).to.equal(200);
      expect(graduated.body.ui).to.equal('http');
      expect((await ada.json('GET', `/apps/${app.id}/open`)).body).to.deep.include({ kind: 'http', url: `/apps/${app.id}/view/` });
      const called = await ada.json('POST', `/apps/${app.id}/fn/shelve`, { book: 'Dune' });
      expect(called.status).to.equal(200);
      expect(called.body).to.deep.equal({ ok: true, fn: 'shelve', input: { book: 'Dune' } });
      // The answer is the app's, served from the wire's origin: it never runs there as a page.
      expect(called.headers.get('content-security-policy')).to.contain('sandbox');
      expect(called.headers.get('x-content-type-options')).to.equal('nosniff');
      expect((await ada.json('POST', `/apps/${app.id}/fn/missing`, {})).status).to.equal(404);

      const broken = await ada.json('POST', `/apps/${app.id}/edit`, { instruction: 'rewrite server.js as `process.exit(3)`' });
      expect(broken.status).to.equal(409);
      expect(broken.body.error.message).to.contain('previous version keeps serving');
      expect((await ada.json('GET', `/apps/${app.id}`)).body.version).to.equal(graduated.body.version);
      expect((await ada.json('POST', `/apps/${app.id}/fn/shelve`, { book: 'Emma' })).body).to.deep.equal({
        ok: true,
        fn: 'shelve',
        input: { book: 'Emma' },
      });
      expect((await ada.json('GET', `/apps/${app.id}/versions`)).body.versions.map((v: Part) => v.change)).to.deep.equal([
        'graduate',
        'edit',
        'create',
      ]);
    } finally {
      await host.close();
    }
  });

  it('answers graduation and function calls in the envelope when the deployment has no sandbox', async () => {
    const host = await devHost({ porter: { sandbox: false } });
    try {
      const ada = host.client.as('ada');
      const app = (await ada.json('POST', '/apps', { prompt: 'reading list' })).body;
      const graduate = await ada.json('POST', `/apps/${app.id}/graduate`, {});
      expect(graduate.status).to.equal(501);
      expect(graduate.body.error.code).to.equal('not-implemented');
      expect((await ada.json('GET', `/apps/${app.id}`)).body.ui).to.equal('tree');
      const fn = await ada.json('POST', `/apps/${app.id}/fn/hello`, {});
      expect(fn.status).to.equal(409);
      expect(fn.body.error.code).to.equal('conflict');
    } finally {
      await host.close();
    }
  });
});

describe('apps generated by a model that answers something that is not an app', function () {
  this.timeout(30_000);

  it('answers 503 unavailable in the envelope for create and edit, naming the problem, and stores nothing', async () => {
    let answer = JSON.stringify({ ...tinyDocument(), title: 'Reading list' });
    const model = new RecordingLanguageModel(() => ({ text: answer }));
    const host = await devHost({ porter: { model } });
    try {
      const ada = host.client.as('ada');
      const app = (await ada.json('POST', '/apps', { prompt: 'reading list' })).body;
      expect(app.title).to.equal('Reading list');
      for (const [prose, reason] of [
        ["Sure! Here's a lovely reading list app for you.", 'it did not answer with a complete JSON document'],
        [JSON.stringify({ ...tinyDocument(), root: 'nowhere' }), 'its answer is not a valid app document'],
      ] as const) {
        answer = prose;
        const created = await ada.json('POST', '/apps', { prompt: 'another list' });
        expect(created.status, reason).to.equal(503);
        expect(created.body.error, reason).to.deep.include({
          code: 'unavailable',
          message: `The model could not write this app (${reason}); nothing was saved. Try again`,
        });
        const edited = await ada.json('POST', `/apps/${app.id}/edit`, { instruction: 'add a footer' });
        expect(edited.status, reason).to.equal(503);
        expect(edited.body.error.code, reason).to.equal('unavailable');
      }
      expect((await ada.json('GET', '/apps')).body.apps.map((a: Part) => a.id)).to.deep.equal([app.id]);
      expect((await ada.json('GET', `/apps/${app.id}/versions`)).body.versions).to.have.length(1);
    } finally {
      await host.close();
    }
  });
});

describe('apps: false', function () {
  this.timeout(30_000);

  it('unmounts the family: no routes, no apps tools, and status says so', async () => {
    const host = await devHost({ porter: { apps: false } });
    try {
      const ada = host.client.as('ada');
      expect((await ada.json('GET', '/apps')).status).to.equal(404);
      expect((await ada.json('POST', '/apps', { prompt: 'x' })).status).to.equal(404);
      expect((await ada.json('GET', '/status')).body.blocks.apps).to.equal(false);
      const thread = await ada.newThread();
      const turn = await ada.say(thread, '/app a grocery list');
      expect(toolPart(turn.message, 'porter_apps_create')!.state).to.equal('output-error');
    } finally {
      await host.close();
    }
  });
});
