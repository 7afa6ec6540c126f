import { expect } from 'chai';
import { adasAppOn, appsHarness } from '../../support/apps-harness.js';
import { ada, bob } from '../../support/guard-harness.js';
import { RecordingSandbox } from '../../support/apps-sandbox.js';
import { eventually, until } from '../../support/eventually.js';

async function servedApp() {
  const sandbox = new RecordingSandbox();
  sandbox.script.fn = (name, input) => ({ status: 200, body: { name, input } });
  const { h, app } = await adasAppOn(sandbox, 'reading list');
  return { h, sandbox, app };
}

describe('graduation to a served app (through the Sandbox port)', () => {
  it('writes the scaffold, starts the server and takes a snapshot; only then is the app served', async () => {
    const { h, sandbox, app } = await servedApp();
    const graduated = await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    expect(sandbox.steps).to.deep.equal([`open ${app.id}`, `writeFiles ${app.id}`, `start ${app.id}`, `snapshot ${app.id}`]);
    expect(graduated.ui).to.equal('http');
    const session = sandbox.sessions.get(app.id)!;
    expect([...session.files.keys()]).to.include.members(['/app/app.json', '/app/server.js']);
    expect(session.servedDocument()).to.deep.include({ ui: 'http', title: 'Reading list' });
    const opened = await h.apps.openApp.execute({ principal: ada, appId: app.id });
    expect(opened).to.deep.include({ kind: 'http', url: `/apps/${app.id}/view/`, pinDrift: null });
    expect((await h.apps.listVersions.execute({ principal: ada, appId: app.id })).versions.map((v) => v.change)).to.deep.equal([
      'graduate',
      'create',
    ]);
  });

  for (const failOn of ['open', 'writeFiles', 'start', 'snapshot'] as const) {
    it(`leaves the document untouched when ${failOn} fails`, async () => {
      const { h, sandbox, app } = await servedApp();
      sandbox.script.failOn = failOn;
      const error = await h.apps.graduateApp.execute({ principal: ada, appId: app.id }).catch((e) => e);
      expect(error.code).to.equal('conflict');
      const after = await h.apps.getApp.execute({ principal: ada, appId: app.id });
      expect(after).to.deep.include({ ui: 'tree', contentHash: app.contentHash, version: app.version });
      expect((await h.apps.openApp.execute({ principal: ada, appId: app.id })).kind).to.equal('tree');
    });
  }

  it('answers not-implemented without a sandbox, before anything changes', async () => {
    const h = appsHarness();
    const app = await h.apps.createApp.execute({ principal: ada, prompt: 'reading list' });
    expect((await h.apps.graduateApp.execute({ principal: ada, appId: app.id }).catch((e) => e)).code).to.equal('not-implemented');
    expect((await h.apps.getApp.execute({ principal: ada, appId: app.id })).ui).to.equal('tree');
  });

  it('proxies POST /apps/:id/fn/:name to the served app, and refuses it for a tree app', async () => {
    const { h, app } = await servedApp();
    expect((await h.apps.callFunction.execute({ principal: ada, appId: app.id, name: 'hello', input: {} }).catch((e) => e)).code).to.equal(
      'conflict',
    );
    await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    const answer = await h.apps.callFunction.execute({ principal: ada, appId: app.id, name: 'hello', input: { who: 'ada' } });
    expect(answer.status).to.equal(200);
    expect(JSON.parse(new TextDecoder().decode(answer.body))).to.deep.equal({ name: 'hello', input: { who: 'ada' } });
    expect((await h.apps.callFunction.execute({ principal: bob, appId: app.id, name: 'hello', input: {} }).catch((e) => e)).code).to.equal(
      'not-found',
    );
  });

  it("answers unavailable, not a 500, when the app's server drops the connection (restarting)", async () => {
    const { h, sandbox, app } = await servedApp();
    await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    sandbox.sessions.get(app.id)!.fetch = async () => {
      throw new TypeError('fetch failed');
    };
    for (const call of [
      h.apps.callFunction.execute({ principal: ada, appId: app.id, name: 'hello', input: {} }),
      h.apps.viewServedApp.execute({ principal: ada, appId: app.id, path: '/' }),
    ]) {
      const error = await call.catch((e) => e);
      expect(error.code).to.equal('unavailable');
      expect(error.message).to.match(/did not answer/);
    }
  });

  it('asks before the agent edits a served app, even with an instruction that needs no server code', async () => {
    const { h, app } = await servedApp();
    expect((await h.call('porter_apps_edit', { appId: app.id, instruction: 'rename to Books' })).status, 'a tree app: read-class').to.equal(
      'ran',
    );
    await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    const parked = await h.call('porter_apps_edit', { appId: app.id, instruction: 'rename to Novels' });
    expect(parked).to.deep.include({ status: 'parked' });
    expect((await h.apps.getApp.execute({ principal: ada, appId: app.id })).title).to.equal('Books');
  });

  it('rolls a served edit out, checking the server listens before the snapshot', async () => {
    const { h, sandbox, app } = await servedApp();
    await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    sandbox.steps.length = 0;
    const result = await h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'rename to Books' });
    expect(sandbox.steps).to.deep.equal([
      `open ${app.id}`,
      `writeFiles ${app.id}`,
      `start ${app.id}`,
      `isListening ${app.id}`,
      `snapshot ${app.id}`,
    ]);
    expect(result.app).to.deep.include({ title: 'Books', ui: 'http' });
    expect(sandbox.sessions.get(app.id)!.servedDocument()!.title).to.equal('Books');
  });

  it('fails an edit whose server does not listen, and the previous version keeps serving', async () => {
    const { h, sandbox, app } = await servedApp();
    const graduated = await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    sandbox.script.listensAfterStart = false;
    const error = await h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'rename to Broken' }).catch((e) => e);
    expect(error.code).to.equal('conflict');
    expect(error.message).to.contain('previous version keeps serving');
    expect(sandbox.steps.slice(-2)).to.deep.equal([`open ${app.id}`, `restore ${app.id}`]);
    const session = sandbox.sessions.get(app.id)!;
    expect(session.listening).to.equal(true);
    expect(session.servedDocument()!.title).to.equal('Reading list');
    expect((await h.apps.getApp.execute({ principal: ada, appId: app.id })).version).to.equal(graduated.version);
  });

  it('brings a served app whose server went away back from its snapshot when it is opened', async () => {
    const { h, sandbox, app } = await servedApp();
    await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    const session = sandbox.sessions.get(app.id)!;
    session.listening = false;
    expect((await h.apps.openApp.execute({ principal: ada, appId: app.id })).kind).to.equal('resuming');
    expect(await eventually(() => session.listening), 'the restore started by opening brings the server back').to.equal(true);
    expect(h.logger.entries.filter((entry) => entry.message === 'restoring a served app from its snapshot')).to.deep.equal([
      { level: 'info', message: 'restoring a served app from its snapshot', fields: { appId: app.id, snapshotId: 'snap_1' } },
    ]);
    expect((await h.apps.openApp.execute({ principal: ada, appId: app.id })).kind).to.equal('http');
  });

  it('still answers resuming when the restore that opening started fails, and logs the failure', async () => {
    const { h, sandbox, app } = await servedApp();
    await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    const session = sandbox.sessions.get(app.id)!;
    session.listening = false;
    sandbox.script.failOn = 'restore';
    expect((await h.apps.openApp.execute({ principal: ada, appId: app.id })).kind).to.equal('resuming');
    const logged = await until(
      () => h.logger.entries.find((entry) => entry.message.includes('could not resume a served app')),
      (entry) => entry !== undefined,
      { what: 'the failed restore in the log' },
    );
    expect(logged).to.deep.include({ level: 'warn' });
    expect(logged!.fields).to.deep.include({ appId: app.id });
    expect(String(logged!.fields!.cause)).to.contain('restore');
    expect(session.listening).to.equal(false);
    sandbox.script.failOn = null;
    expect((await h.apps.openApp.execute({ principal: ada, appId: app.id })).kind, 'the next open tries again').to.equal('resuming');
    expect(await eventually(() => session.listening)).to.equal(true);
  });
});
