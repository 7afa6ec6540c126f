import { expect } from 'chai';
import { adasAppOn } from '../../support/apps-harness.js';
import { ada } from '../../support/guard-harness.js';
import { RecordingSandbox } from '../../support/apps-sandbox.js';

async function graduatedApp() {
  const sandbox = new RecordingSandbox();
  const { h, app } = await adasAppOn(sandbox, 'reading list');
  await h.apps.graduateApp.execute({ principal: ada, appId: app.id });
  await h.apps.putRecord.execute({ principal: ada, appId: app.id, collection: 'books', data: { title: 'Dune' } });
  sandbox.steps.length = 0;
  return { h, sandbox, app };
}

describe('deleting an app (its sandbox through the Sandbox port)', () => {
  it("discards a served app's sandbox — files and snapshots — rather than only closing it", async () => {
    const { h, sandbox, app } = await graduatedApp();
    const session = sandbox.sessions.get(app.id)!;
    await h.apps.deleteApp.execute({ principal: ada, appId: app.id });
    expect(sandbox.steps).to.deep.equal([`open ${app.id}`, `discard ${app.id}`]);
    expect(session.discarded).to.equal(true);
    expect(session.files.size).to.equal(0);
    expect(sandbox.sessions.has(app.id)).to.equal(false);
    expect((await h.apps.getApp.execute({ principal: ada, appId: app.id }).catch((e) => e)).code).to.equal('not-found');
  });

  it('keeps the app, its data and its sandbox when the sandbox cannot be discarded, so the delete can be retried', async () => {
    const { h, sandbox, app } = await graduatedApp();
    sandbox.script.failOn = 'discard';
    const error = await h.apps.deleteApp.execute({ principal: ada, appId: app.id }).catch((e) => e);
    expect(error.code).to.equal('unavailable');
    expect(error.message).to.contain('try deleting it again');
    expect((await h.apps.getApp.execute({ principal: ada, appId: app.id })).ui).to.equal('http');
    expect((await h.apps.listRecords.execute({ principal: ada, appId: app.id, collection: 'books' })).records).to.have.length(1);
    expect(h.logger.entries.some((entry) => entry.message === 'could not discard an app sandbox')).to.equal(true);

    sandbox.script.failOn = null;
    await h.apps.deleteApp.execute({ principal: ada, appId: app.id });
    expect((await h.apps.getApp.execute({ principal: ada, appId: app.id }).catch((e) => e)).code).to.equal('not-found');
    expect(sandbox.sessions.has(app.id)).to.equal(false);
  });

  it('leaves the sandbox alone for a tree app, which never had one', async () => {
    const sandbox = new RecordingSandbox();
    const { h, app } = await adasAppOn(sandbox, 'reading list');
    await h.apps.deleteApp.execute({ principal: ada, appId: app.id });
    expect(sandbox.steps).to.deep.equal([]);
  });
});
