import { expect } from 'chai';
import { adasAppOn } from '../../support/apps-harness.js';
import { ada } from '../../support/guard-harness.js';
import { localSandboxPerTest } from '../../support/local-sandbox-fixture.js';

const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe('graduation on the local sandbox (a real app server in a child process)', function () {
  this.timeout(60_000);
  const local = localSandboxPerTest('porter-graduation-', 3_000);

  it('serves POST /fn/<name> from the scaffolded server once graduated', async () => {
    const { h, app } = await adasAppOn(local.sandbox(), 'reading list');
    await h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'add a server function named shelve' });
    const served = await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    expect(served.ui).to.equal('http');
    const answer = await h.apps.callFunction.execute({ principal: ada, appId: app.id, name: 'shelve', input: { book: 'Dune' } });
    expect(answer.contentType).to.contain('application/json');
    expect(decode(answer.body)).to.deep.equal({ ok: true, fn: 'shelve', input: { book: 'Dune' } });
    expect(
      (await h.apps.callFunction.execute({ principal: ada, appId: app.id, name: 'missing', input: null }).catch((e) => e)).code,
    ).to.equal('not-found');
  });

  it('keeps the previous version serving when an edit brings a server that does not listen', async () => {
    const { h, app } = await adasAppOn(local.sandbox(), 'reading list');
    await h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'add a server function named shelve' });
    const served = await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
    const error = await h.apps.editApp
      .execute({ principal: ada, appId: app.id, instruction: 'rewrite server.js as `process.exit(3)`' })
      .catch((e) => e);
    expect(error.code).to.equal('conflict');
    expect((await h.apps.getApp.execute({ principal: ada, appId: app.id })).version).to.equal(served.version);
    const answer = await h.apps.callFunction.execute({ principal: ada, appId: app.id, name: 'shelve', input: 1 });
    expect(decode(answer.body)).to.deep.equal({ ok: true, fn: 'shelve', input: 1 });
  });

  it('leaves a tree app untouched when its own server never starts', async () => {
    const { h, app } = await adasAppOn(local.sandbox(), 'reading list');
    const broken = await h.apps.editApp.execute({
      principal: ada,
      appId: app.id,
      instruction: 'write server.js as `setTimeout(() => {}, 60000)`',
    });
    const error = await h.apps.graduateApp.execute({ principal: ada, appId: app.id }).catch((e) => e);
    expect(error.code).to.equal('conflict');
    const after = await h.apps.getApp.execute({ principal: ada, appId: app.id });
    expect(after).to.deep.include({ ui: 'tree', version: broken.app.version });
  });
});
