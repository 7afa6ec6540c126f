import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { appsHarness, dataParts } from '../../support/apps-harness.js';
import type { AppView } from '../../../domain/apps/app-view.js';
import { ada, bob, countingTool, parkedId } from '../../support/guard-harness.js';
import { hostComponents } from '../../support/apps-pins.js';
import { toolDocument } from '../../support/apps-documents.js';
import { SequentialIds } from '../../support/fakes.js';
import { FilePinCatalog } from '../../../adapters/apps/file-pin-catalog.js';
import { RunAppAction } from '../../../application/apps/run-app-action.js';

describe('pins: forks of host components, drift and rebase', () => {
  let host: Awaited<ReturnType<typeof hostComponents>>;
  let h: ReturnType<typeof appsHarness>;

  beforeEach(async () => {
    host = await hostComponents();
    h = appsHarness({ catalog: new FilePinCatalog({ manifestFile: host.manifestFile }) });
  });

  afterEach(async () => {
    await host.remove();
  });

  it('seeds a fork of a slot without a model call and places the newest fork in the slot', async () => {
    const fork = await h.apps.seedApp.execute({ principal: ada, slot: 'pricing' });
    expect(fork).to.deep.include({ slot: 'pricing', drifted: false, title: 'Pricing' });
    const placements = await h.apps.listPlacements.execute({ principal: ada, slots: ['pricing', 'footer'] });
    expect(placements.placements).to.deep.equal([
      { slot: 'pricing', appId: fork.id, version: fork.version, drifted: false },
      { slot: 'footer', appId: null, version: null, drifted: false },
    ]);
    expect((await h.apps.listPlacements.execute({ principal: bob, slots: ['pricing'] })).placements[0]!.appId).to.equal(null);
    expect((await h.apps.seedApp.execute({ principal: ada, slot: 'nope' }).catch((e) => e)).code).to.equal('not-found');
  });

  it('marks forks drifted when the host component changes, shows it everywhere, and never rebases by itself', async () => {
    const fork = await h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'add a note about VAT' });
    expect((await h.apps.syncPins.execute({})).drifted).to.deep.equal([]);
    await host.change('Pricing 2026');
    const report = await h.apps.syncPins.execute({});
    expect(report.drifted).to.have.length(1);
    expect(report.drifted[0]).to.deep.include({ appId: fork.id, slot: 'pricing' });
    expect(report.slots).to.deep.equal([{ slot: 'pricing', hash: report.drifted[0]!.currentHash, forks: 1, drifted: 1 }]);
    expect((await h.apps.syncPins.execute({})).drifted, 'a second sync reports nothing new').to.deep.equal([]);

    const opened = await h.apps.openApp.execute({ principal: ada, appId: fork.id });
    expect(opened.pinDrift).to.deep.equal({
      slot: 'pricing',
      baselineHash: report.drifted[0]!.baselineHash,
      currentHash: report.drifted[0]!.currentHash,
    });
    const edited = await h.apps.editApp.execute({ principal: ada, appId: fork.id, instruction: 'add a footnote' });
    expect(edited.driftedPins).to.deep.equal([opened.pinDrift]);
    expect(edited.app.title).to.equal('Pricing');
    expect((await h.apps.listPlacements.execute({ principal: ada, slots: ['pricing'] })).placements[0]!.drifted).to.equal(true);
  });

  it('shows the drift in the view a chat renders, when the fork is opened or edited there', async () => {
    const fork = await h.apps.seedApp.execute({ principal: ada, slot: 'pricing' });
    await host.change('Pricing 2026');
    await h.apps.syncPins.execute({});
    const drift = (await h.apps.openApp.execute({ principal: ada, appId: fork.id })).pinDrift;
    expect(drift).to.not.equal(null);
    for (const [tool, input] of [
      ['porter_apps_open', { appId: fork.id }],
      ['porter_apps_edit', { appId: fork.id, instruction: 'add a footnote' }],
    ] as const) {
      const watch = dataParts();
      expect((await h.call(tool, input, { writeData: watch.writeData })).status, tool).to.equal('ran');
      const view = watch.parts.at(-1)!.data as AppView;
      expect(view, tool).to.deep.include({ status: 'ready', pinDrift: drift });
    }
    const plain = dataParts();
    const other = await h.apps.createApp.execute({ principal: ada, prompt: 'not a fork' });
    await h.call('porter_apps_open', { appId: other.id }, { writeData: plain.writeData });
    expect((plain.parts.at(-1)!.data as AppView).pinDrift ?? null).to.equal(null);
  });

  it('rebases on ask into one new version: the new baseline with the edit trail replayed, old approvals invalidated', async () => {
    const fork = await h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'add a note about VAT' });
    await h.apps.editApp.execute({ principal: ada, appId: fork.id, instruction: 'add a footnote' });
    const parked = await h.call('porter_apps_edit', { appId: fork.id, instruction: 'add a server function named quote' });
    const approvalId = parkedId(parked);
    await h.decide.execute({ principal: ada, approvalId, approve: true });
    expect(
      (await h.apps.rebasePin.execute({ principal: ada, appId: fork.id, slot: 'pricing' }).catch((e) => e)).code,
      'not drifted yet',
    ).to.equal('conflict');

    await host.change('Pricing 2026');
    await h.apps.syncPins.execute({});
    const before = (await h.apps.listVersions.execute({ principal: ada, appId: fork.id })).versions.length;
    const rebased = await h.apps.rebasePin.execute({ principal: ada, appId: fork.id, slot: 'pricing' });
    expect(rebased.app).to.deep.include({ title: 'Pricing 2026', drifted: false });
    const texts = Object.values(rebased.app.document.nodes).map((n) => n.props?.text);
    expect(texts).to.include.members(['add a note about VAT', 'add a footnote']);
    const versions = (await h.apps.listVersions.execute({ principal: ada, appId: fork.id })).versions;
    expect(versions).to.have.length(before + 1);
    expect(versions[0]!.change).to.equal('rebase');
    const approval = await h.get.execute({ principal: ada, approvalId });
    expect(approval).to.deep.include({ state: 'expired', outcome: { kind: 'expired', reason: 'invalidated' } });
    expect((await h.apps.openApp.execute({ principal: ada, appId: fork.id })).pinDrift).to.equal(null);
  });

  it('invalidates what the person approved in the app itself against the pre-rebase content: the same action asks again', async () => {
    const component = (title: string) => writeFile(`${host.folder}/pricing.app.json`, JSON.stringify({ ...toolDocument(), title }));
    await component('Pricing board');
    const add = countingTool('notes_add', 'write');
    const withTools = appsHarness({ catalog: new FilePinCatalog({ manifestFile: host.manifestFile }), hostTools: [add.tool] });
    const actions = new RunAppAction(withTools.book, withTools.guard, new SequentialIds());
    const fork = await withTools.apps.seedApp.execute({ principal: ada, slot: 'pricing' });
    const press = () => actions.execute({ principal: ada, appId: fork.id, action: 'add-note', input: { text: 'buy milk' } });
    const parked = await press();
    if (parked.status !== 'parked') throw new Error('expected the write to ask');
    await withTools.decide.execute({ principal: ada, approvalId: parked.approvalId, approve: true });

    await component('Pricing board, new');
    await withTools.apps.syncPins.execute({});
    await withTools.apps.rebasePin.execute({ principal: ada, appId: fork.id, slot: 'pricing' });
    expect(await withTools.get.execute({ principal: ada, approvalId: parked.approvalId })).to.deep.include({
      state: 'expired',
      outcome: { kind: 'expired', reason: 'invalidated' },
    });
    const again = await press();
    expect(again.status, 'the approval given before the rebase does not run the call').to.equal('parked');
    expect(again).to.not.deep.include({ approvalId: parked.approvalId });
    expect(add.calls).to.deep.equal([]);
  });

  it('rebases all or nothing: a failing replay leaves the fork as it was', async () => {
    const fork = await h.apps.seedApp.execute({ principal: ada, slot: 'pricing', instruction: 'add a note' });
    await host.change('Pricing 2026');
    await h.apps.syncPins.execute({});
    // The host's new component breaks the document rules: nothing may be stored.
    await (
      await import('node:fs/promises')
    ).writeFile(`${host.folder}/pricing.app.json`, JSON.stringify({ format: 1, title: 'Broken', root: 'x', nodes: {} }));
    const error = await h.apps.rebasePin.execute({ principal: ada, appId: fork.id, slot: 'pricing' }).catch((e) => e);
    expect(error.code).to.equal('validation');
    const after = await h.apps.getApp.execute({ principal: ada, appId: fork.id });
    expect(after).to.deep.include({ version: fork.version, drifted: true });
  });
});
