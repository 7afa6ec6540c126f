import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppGenerator } from '../../../ports/app-generator.js';
import type { AppDocument } from '../../../domain/apps/app-document.js';
import type { Principal } from '../../../domain/principal.js';
import { anonymousPrincipal } from '../../../domain/principal.js';
import { ZipAppArchive } from '../../../adapters/apps/zip-app-archive.js';
import { FilePinCatalog } from '../../../adapters/apps/file-pin-catalog.js';
import { appsHarness } from '../../support/apps-harness.js';
import { tinyDocument } from '../../support/apps-documents.js';
import { hostComponents } from '../../support/apps-pins.js';
import { ada, bob } from '../../support/guard-harness.js';

const carol: Principal = { subject: 'carol', kind: 'user' };
const visitor = anonymousPrincipal('anon_visitor0001');
const sharedDocument = (): AppDocument => ({ ...tinyDocument(), title: 'Team list', scope: 'shared' });
const appFile = (document: AppDocument) => new ZipAppArchive().pack(document);
const writes = (document: AppDocument): AppGenerator => ({
  async *create() {
    yield document;
  },
  async *edit() {
    yield document;
  },
});

/** A host rule letting only carol share, that counts who it was asked about. */
function onlyCarol() {
  const asked: string[] = [];
  return {
    asked,
    canShareApps: (principal: Principal) => {
      asked.push(principal.subject);
      return principal.subject === 'carol';
    },
  };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

describe('Who may share an app: a supplied document is owner-scoped unless its person may share', () => {
  it("stores an ordinary person's shared import owner-scoped, so someone else gets not-found", async () => {
    const rule = onlyCarol();
    const h = appsHarness({ canShareApps: rule.canShareApps });
    const imported = await h.apps.importApp.execute({ principal: ada, bytes: appFile(sharedDocument()) });
    expect(imported.document.scope).to.equal('owner');
    expect(rule.asked).to.deep.equal(['ada']);
    expect(await codeOf(h.apps.getApp.execute({ principal: bob, appId: imported.id }))).to.equal('not-found');
    expect(await codeOf(h.apps.listRecords.execute({ principal: bob, appId: imported.id, collection: 'items' }))).to.equal('not-found');
    expect((await h.apps.getApp.execute({ principal: ada, appId: imported.id })).document.title).to.equal('Team list');
  });

  it("stores an anonymous importer's shared import owner-scoped without asking the host", async () => {
    const rule = { asked: 0, canShareApps: () => ((rule.asked += 1), true) };
    const h = appsHarness({ canShareApps: rule.canShareApps });
    const imported = await h.apps.importApp.execute({ principal: visitor, bytes: appFile(sharedDocument()) });
    expect(imported.document.scope).to.equal('owner');
    expect(rule.asked).to.equal(0);
    expect(await codeOf(h.apps.getApp.execute({ principal: bob, appId: imported.id }))).to.equal('not-found');
  });

  it('lets nobody share when the host set no rule', async () => {
    const h = appsHarness();
    const imported = await h.apps.importApp.execute({ principal: carol, bytes: appFile(sharedDocument()) });
    expect(imported.document.scope).to.equal('owner');
    expect(await codeOf(h.apps.getApp.execute({ principal: bob, appId: imported.id }))).to.equal('not-found');
  });

  it("shares a permitted importer's shared import with people signed in, not with anonymous visitors", async () => {
    const rule = onlyCarol();
    const h = appsHarness({ canShareApps: rule.canShareApps });
    const imported = await h.apps.importApp.execute({ principal: carol, bytes: appFile(sharedDocument()) });
    expect(imported.document.scope).to.equal('shared');
    expect((await h.apps.getApp.execute({ principal: bob, appId: imported.id })).id).to.equal(imported.id);
    expect(await codeOf(h.apps.getApp.execute({ principal: visitor, appId: imported.id }))).to.equal('not-found');
    // An owner-scoped import does not ask the host at all.
    await h.apps.importApp.execute({ principal: ada, bytes: appFile(tinyDocument()) });
    expect(rule.asked).to.deep.equal(['carol']);
  });

  it('counts a rule that throws as a no', async () => {
    const h = appsHarness({
      canShareApps: () => {
        throw new Error('the directory is down');
      },
    });
    const imported = await h.apps.importApp.execute({ principal: carol, bytes: appFile(sharedDocument()) });
    expect(imported.document.scope).to.equal('owner');
    expect(h.logger.entries.some((e) => e.level === 'warn' && /canShareApps/.test(e.message))).to.equal(true);
  });

  it('gives a generated app asking to be shared the same rule, and an edit never changes the scope', async () => {
    const rule = onlyCarol();
    const h = appsHarness({ generator: writes(sharedDocument()), canShareApps: rule.canShareApps });
    const adas = await h.apps.createApp.execute({ principal: ada, prompt: 'a list for the team' });
    expect(adas.document.scope).to.equal('owner');
    const edited = await h.apps.editApp.execute({ principal: ada, appId: adas.id, instruction: 'add a subtitle' });
    expect(edited.app.document.scope).to.equal('owner');
    const carols = await h.apps.createApp.execute({ principal: carol, prompt: 'a list for the team' });
    expect(carols.document.scope).to.equal('shared');
  });

  describe('forks of host components', () => {
    let host: Awaited<ReturnType<typeof hostComponents>>;
    const declareShared = (title: string) =>
      writeFile(join(host.folder, `${host.slot}.app.json`), JSON.stringify({ ...sharedDocument(), title }));

    beforeEach(async () => {
      host = await hostComponents();
    });

    afterEach(async () => {
      await host.remove();
    });

    it('forks a component declared shared owner-scoped for an ordinary person, shared for a permitted one', async () => {
      await declareShared('Pricing');
      const h = appsHarness({ catalog: new FilePinCatalog({ manifestFile: host.manifestFile }), canShareApps: onlyCarol().canShareApps });
      const adas = await h.apps.seedApp.execute({ principal: ada, slot: 'pricing' });
      expect(adas.document.scope).to.equal('owner');
      expect(await codeOf(h.apps.getApp.execute({ principal: bob, appId: adas.id }))).to.equal('not-found');
      expect((await h.apps.seedApp.execute({ principal: carol, slot: 'pricing' })).document.scope).to.equal('shared');
    });

    it("keeps the fork's scope when a rebase brings a baseline declared shared", async () => {
      const h = appsHarness({ catalog: new FilePinCatalog({ manifestFile: host.manifestFile }), canShareApps: () => true });
      const fork = await h.apps.seedApp.execute({ principal: ada, slot: 'pricing' });
      expect(fork.document.scope).to.equal('owner');
      await declareShared('Pricing, now shared');
      await h.apps.syncPins.execute({});
      const rebased = await h.apps.rebasePin.execute({ principal: ada, appId: fork.id, slot: 'pricing' });
      expect(rebased.app.document).to.deep.include({ title: 'Pricing, now shared', scope: 'owner' });
      expect(await codeOf(h.apps.getApp.execute({ principal: bob, appId: fork.id }))).to.equal('not-found');
    });
  });
});
