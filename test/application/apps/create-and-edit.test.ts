import { expect } from 'chai';
import { appsHarness, dataParts } from '../../support/apps-harness.js';
import { ada, bob, parkedId } from '../../support/guard-harness.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { DeterministicAppGenerator } from '../../../adapters/apps/deterministic-app-generator.js';
import type { AppGenerator } from '../../../ports/app-generator.js';
import type { AppView } from '../../../domain/apps/app-view.js';

/** A generator whose edits wait until `release()`, so two edits can be started side by side. */
function gatedEdits(): { generator: AppGenerator; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const generator: AppGenerator = {
    create: (request) => new DeterministicAppGenerator().create(request),
    async *edit(request) {
      await gate;
      yield* new DeterministicAppGenerator().edit(request);
    },
  };
  return { generator, release };
}

const created = (result: Awaited<ReturnType<ReturnType<typeof appsHarness>['call']>>) => {
  if (result.status !== 'ran') throw new Error(`expected the call to run, it ${result.status}: ${JSON.stringify(result)}`);
  return result.output as { appId: string; version: string; nodes: number };
};

describe('porter_apps_create and porter_apps_edit (use cases behind the guard)', () => {
  it('creates without asking and streams every view of the app under one part id, skeletons first', async () => {
    const h = appsHarness();
    const watch = dataParts();
    const app = created(await h.call('porter_apps_create', { prompt: 'a grocery list with prices' }, { writeData: watch.writeData }));
    expect(app.appId).to.match(/^app_/);
    expect(watch.parts.length).to.be.greaterThan(3);
    expect(new Set(watch.parts.map((p) => `${p.type} ${p.id}`))).to.deep.equal(new Set([`data-porter-view porter-view:${app.appId}`]));
    const views = watch.parts.map((p) => p.data as AppView);
    expect(Object.values(views[1]!.nodes).some((n) => n.pending && n.type === null)).to.equal(true);
    expect(views.at(-1)!.status).to.equal('ready');
    expect(Object.values(views.at(-1)!.nodes).every((n) => !n.pending)).to.equal(true);
    const listed = await h.apps.listApps.execute({ principal: ada });
    expect(listed.apps.map((a) => a.id)).to.deep.equal([app.appId]);
    const versions = await h.apps.listVersions.execute({ principal: ada, appId: app.appId });
    expect(versions.versions.map((v) => [v.number, v.change])).to.deep.equal([[1, 'create']]);
    expect(versions.versions[0]!.id).to.match(/^ver_/);
  });

  it('runs a tree edit of an owner-scoped tree app without asking, as one new version', async () => {
    const h = appsHarness();
    const { appId } = created(await h.call('porter_apps_create', { prompt: 'reading list' }));
    const result = await h.call('porter_apps_edit', { appId, instruction: 'say hello at the bottom' });
    expect(result.status).to.equal('ran');
    const detail = await h.apps.getApp.execute({ principal: ada, appId });
    expect(Object.values(detail.document.nodes).some((n) => n.props?.text === 'say hello at the bottom')).to.equal(true);
    expect((await h.apps.listVersions.execute({ principal: ada, appId })).versions.map((v) => v.change)).to.deep.equal(['edit', 'create']);
  });

  it('asks before an edit that needs server code, and the approval carries the app and its content hash', async () => {
    const h = appsHarness();
    const { appId } = created(await h.call('porter_apps_create', { prompt: 'reading list' }));
    const parked = await h.call('porter_apps_edit', { appId, instruction: 'add a server function called sync' });
    const approval = await h.get.execute({ principal: ada, approvalId: parkedId(parked) });
    const detail = await h.apps.getApp.execute({ principal: ada, appId });
    expect(approval.request).to.deep.include({ appId, contentHash: detail.contentHash, risk: 'write' });
    expect(detail.versionNumber).to.equal(1);
  });

  it("asks before editing a shared app, or an app that is not the caller's", async () => {
    const h = appsHarness();
    const { appId } = created(await h.call('porter_apps_create', { prompt: 'reading list' }));
    const loaded = (await h.book.find(appId))!;
    await h.book.swap(
      loaded,
      (await import('../../../domain/apps/app.js')).App.fromPrimitives({
        ...loaded.app.toPrimitives(),
        document: { ...loaded.app.document, scope: 'shared' },
      }),
    );
    expect((await h.call('porter_apps_edit', { appId, instruction: 'add a footer' })).status).to.equal('parked');
    expect((await h.call('porter_apps_edit', { appId, instruction: 'add a footer' }, { principal: bob })).status).to.equal('parked');
  });

  it('fails closed when a tree-classified edit comes back with server code: nothing is stored', async () => {
    const sneaky: AppGenerator = {
      create: (request) => new DeterministicAppGenerator().create(request),
      async *edit({ document }) {
        yield {
          ...document,
          server: { files: { 'functions/x.js': 'module.exports = async () => 1' } },
          actions: { ...document.actions, x: { kind: 'call', target: 'fn:x' } },
        };
      },
    };
    const h = appsHarness({ generator: sneaky });
    const watch = dataParts();
    const { appId } = created(await h.call('porter_apps_create', { prompt: 'reading list' }));
    const before = await h.apps.getApp.execute({ principal: ada, appId });
    const result = await h.call('porter_apps_edit', { appId, instruction: 'add a subtitle' }, { writeData: watch.writeData });
    expect(result).to.deep.include({ status: 'failed', code: 'forbidden' });
    expect((watch.parts.at(-1)!.data as AppView).status).to.equal('failed');
    const after = await h.apps.getApp.execute({ principal: ada, appId });
    expect(after.contentHash).to.equal(before.contentHash);
    expect((await h.apps.listVersions.execute({ principal: ada, appId })).versions).to.have.length(1);
  });

  it("rejects a generated document that breaks the rules as the model's failure (unavailable), storing nothing", async () => {
    const broken: AppGenerator = {
      async *create() {
        yield { format: 1, title: 'Broken', root: 'root', nodes: { root: { type: 'stack', children: ['missing'] } } };
      },
      edit: () => (async function* () {})(),
    };
    const h = appsHarness({ generator: broken });
    const result = await h.call('porter_apps_create', { prompt: 'anything' });
    expect(result).to.deep.include({ status: 'failed', code: 'unavailable' });
    expect((await h.apps.listApps.execute({ principal: ada })).apps).to.have.length(0);
  });

  it('lets one of two racing edits win; the other is told the app changed meanwhile', async () => {
    const { generator: slow, release } = gatedEdits();
    const h = appsHarness({ generator: slow });
    const { appId } = created(await h.call('porter_apps_create', { prompt: 'reading list' }));
    const first = h.apps.editApp.execute({ principal: ada, appId, instruction: 'first change' });
    const second = h.apps.editApp.execute({ principal: ada, appId, instruction: 'second change' });
    release();
    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason.code).to.equal('conflict');
    expect((await h.apps.listVersions.execute({ principal: ada, appId })).versions).to.have.length(2);
  });

  it('fails closed on a store without compare-and-swap', async () => {
    const h = appsHarness({ store: new MemoryStore({ clock: { now: () => new Date() }, atomic: false }) });
    const result = await h.apps.createApp.execute({ principal: ada, prompt: 'reading list' }).catch((error) => error);
    expect(result.code).to.equal('unavailable');
    expect((await h.apps.listApps.execute({ principal: ada })).apps).to.have.length(0);
  });

  it('marks the watched view failed when the generated app could not be stored, instead of leaving it building', async () => {
    const h = appsHarness({ store: new MemoryStore({ clock: { now: () => new Date() }, atomic: false }) });
    const watch = dataParts();
    const result = await h.call('porter_apps_create', { prompt: 'reading list' }, { writeData: watch.writeData });
    expect(result).to.deep.include({ status: 'failed', code: 'unavailable' });
    const last = watch.parts.at(-1)!.data as AppView;
    expect(last.status).to.equal('failed');
    expect(last.message).to.be.a('string').and.not.equal('');
  });

  it("marks the losing edit's view failed when another change won the race", async () => {
    const { generator: slow, release } = gatedEdits();
    const h = appsHarness({ generator: slow });
    const { appId } = created(await h.call('porter_apps_create', { prompt: 'reading list' }));
    const watches = [dataParts(), dataParts()];
    const edits = watches.map((watch, i) =>
      h.apps.editApp.execute({
        principal: ada,
        appId,
        instruction: `change ${i}`,
        view: (view) => watch.writeData({ type: 'data-porter-view', id: view.appId, data: view }),
      }),
    );
    release();
    const outcomes = await Promise.allSettled(edits);
    const lost = outcomes.findIndex((o) => o.status === 'rejected');
    expect(lost).to.be.at.least(0);
    expect((watches[lost]!.parts.at(-1)!.data as AppView).status).to.equal('failed');
    expect((watches[1 - lost]!.parts.at(-1)!.data as AppView).status).to.equal('ready');
  });

  it('answers not-implemented when the deployment has no model to generate with', async () => {
    const h = appsHarness({ generator: null });
    const error = await h.apps.createApp.execute({ principal: ada, prompt: 'x' }).catch((e) => e);
    expect(error.code).to.equal('not-implemented');
  });

  it("never shows one person's app to another", async () => {
    const h = appsHarness();
    const { appId } = created(await h.call('porter_apps_create', { prompt: 'diary' }));
    for (const run of [
      () => h.apps.getApp.execute({ principal: bob, appId }),
      () => h.apps.openApp.execute({ principal: bob, appId }),
      () => h.apps.deleteApp.execute({ principal: bob, appId }),
    ]) {
      expect((await run().catch((e) => e)).code).to.equal('not-found');
    }
  });
});

describe('what an edit may not change', () => {
  it("keeps the app's scope and rung whatever the generator answers (a read-class edit cannot share an app)", async () => {
    const widening: AppGenerator = {
      create: (request) => new DeterministicAppGenerator().create(request),
      async *edit({ document }) {
        yield { ...document, title: 'Widened', scope: 'shared', ui: 'http', egress: null };
      },
    };
    const h = appsHarness({ generator: widening });
    const app = await h.apps.createApp.execute({ principal: ada, prompt: 'diary' });
    const edited = await h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'change the title' });
    expect(edited.app).to.deep.include({ title: 'Widened', scope: 'owner', ui: 'tree' });
    expect((await h.apps.getApp.execute({ principal: bob, appId: app.id }).catch((e) => e)).code).to.equal('not-found');
  });
});
