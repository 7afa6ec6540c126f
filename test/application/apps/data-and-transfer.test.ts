import { expect } from 'chai';
import { zipSync, strToU8 } from 'fflate';
import { appsHarness } from '../../support/apps-harness.js';
import { ada, bob } from '../../support/guard-harness.js';
import { tinyDocument } from '../../support/apps-documents.js';
import { ZipAppArchive } from '../../../adapters/apps/zip-app-archive.js';
import { AppsAdopter } from '../../../application/apps/apps-adopter.js';
import { anonymousPrincipal } from '../../../domain/principal.js';

describe("an app's records and blobs", () => {
  it('round-trip records by collection; only the owner writes, and others never see them', async () => {
    const h = appsHarness();
    const app = await h.apps.createApp.execute({ principal: ada, prompt: 'grocery list' });
    const minted = await h.apps.putRecord.execute({ principal: ada, appId: app.id, collection: 'items', data: { text: 'milk' } });
    expect(minted.created).to.equal(true);
    expect(minted.record.id).to.match(/^rec_/);
    await h.apps.putRecord.execute({ principal: ada, appId: app.id, collection: 'items', recordId: 'eggs', data: { text: 'eggs' } });
    const updated = await h.apps.putRecord.execute({
      principal: ada,
      appId: app.id,
      collection: 'items',
      recordId: 'eggs',
      data: { text: 'a dozen eggs' },
    });
    expect(updated.created).to.equal(false);
    await h.apps.putRecord.execute({ principal: ada, appId: app.id, collection: 'other', data: 1 });
    const listed = await h.apps.listRecords.execute({ principal: ada, appId: app.id, collection: 'items' });
    expect(listed.records.map((r) => r.data)).to.have.deep.members([{ text: 'milk' }, { text: 'a dozen eggs' }]);
    expect((await h.apps.getRecord.execute({ principal: ada, appId: app.id, collection: 'items', recordId: 'eggs' })).data).to.deep.equal({
      text: 'a dozen eggs',
    });
    expect((await h.apps.listRecords.execute({ principal: bob, appId: app.id, collection: 'items' }).catch((e) => e)).code).to.equal(
      'not-found',
    );
    expect((await h.apps.putRecord.execute({ principal: bob, appId: app.id, collection: 'items', data: 1 }).catch((e) => e)).code).to.equal(
      'not-found',
    );
    expect(await h.apps.deleteRecords.execute({ principal: ada, appId: app.id, collection: 'items' })).to.deep.equal({ deleted: 2 });
    expect((await h.apps.listRecords.execute({ principal: ada, appId: app.id, collection: 'other' })).records).to.have.length(1);
  });

  it('keeps blobs with their content type and removes everything with the app', async () => {
    const h = appsHarness();
    const app = await h.apps.createApp.execute({ principal: ada, prompt: 'photo album' });
    await h.apps.putBlob.execute({
      principal: ada,
      appId: app.id,
      key: 'cat.png',
      contentType: 'image/png',
      bytes: new Uint8Array([137, 80, 78, 71]),
    });
    await h.apps.putRecord.execute({ principal: ada, appId: app.id, collection: 'photos', data: { blob: 'cat.png' } });
    const blob = await h.apps.getBlob.execute({ principal: ada, appId: app.id, key: 'cat.png' });
    expect(blob.contentType).to.equal('image/png');
    expect([...blob.bytes]).to.deep.equal([137, 80, 78, 71]);
    expect(
      (
        await h.apps.putBlob
          .execute({ principal: ada, appId: app.id, key: '../x', contentType: 'image/png', bytes: new Uint8Array(1) })
          .catch((e) => e)
      ).code,
    ).to.equal('validation');

    await h.apps.deleteApp.execute({ principal: ada, appId: app.id });
    expect(await h.store.blobs(`app-blobs:${app.id}`).list()).to.have.length(0);
    expect((await h.store.records(`app-records:${app.id}`).list()).items).to.have.length(0);
    expect((await h.store.records('app-versions').list({ refs: { app: app.id } })).items).to.have.length(0);
    expect((await h.apps.getApp.execute({ principal: ada, appId: app.id }).catch((e) => e)).code).to.equal('not-found');
  });

  it("moves an anonymous session's apps, with their records, to the person who signs in", async () => {
    const h = appsHarness();
    const visitor = anonymousPrincipal('s1');
    const app = await h.apps.createApp.execute({ principal: visitor, prompt: 'habit tracker' });
    await h.apps.putRecord.execute({ principal: visitor, appId: app.id, collection: 'habits', recordId: 'run', data: { days: 3 } });
    await new AppsAdopter(h.book).adopt(visitor.subject, ada.subject);
    expect((await h.apps.listApps.execute({ principal: ada })).apps.map((a) => a.id)).to.deep.equal([app.id]);
    expect((await h.apps.getRecord.execute({ principal: ada, appId: app.id, collection: 'habits', recordId: 'run' })).data).to.deep.equal({
      days: 3,
    });
    expect((await h.apps.getApp.execute({ principal: visitor, appId: app.id }).catch((e) => e)).code).to.equal('not-found');
  });
});

describe('export and import of an app file', () => {
  it('exports the document and imports it back as a new app of the importer', async () => {
    const h = appsHarness();
    const app = await h.apps.createApp.execute({ principal: ada, prompt: 'reading list' });
    await h.apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'add a server function named fetchbooks' });
    const original = await h.apps.getApp.execute({ principal: ada, appId: app.id });
    const file = await h.apps.exportApp.execute({ principal: ada, appId: app.id });
    expect(file.filename).to.equal('reading-list.porter-app');
    const imported = await h.apps.importApp.execute({ principal: bob, bytes: file.bytes });
    expect(imported.id).to.not.equal(app.id);
    expect(imported.document).to.deep.equal(original.document);
    expect(imported.versionNumber).to.equal(1);
    expect((await h.apps.listVersions.execute({ principal: bob, appId: imported.id })).versions[0]!.change).to.equal('import');
  });

  it('refuses unsafe paths, too many entries, entries past their caps and invalid documents, storing nothing', async () => {
    const h = appsHarness();
    const manifest = strToU8(JSON.stringify(tinyDocument()));
    const attempts: Array<[Uint8Array, string]> = [
      [zipSync({ 'app.json': manifest, 'app/../../etc/passwd': strToU8('x') }), 'validation'],
      [zipSync({ 'app.json': manifest, 'elsewhere.txt': strToU8('x') }), 'validation'],
      [
        zipSync(Object.fromEntries([['app.json', manifest], ...Array.from({ length: 130 }, (_, i) => [`app/f${i}.js`, strToU8('x')])])),
        'payload-too-large',
      ],
      [zipSync({ 'app.json': manifest, 'app/big.js': new Uint8Array(600 * 1024) }), 'payload-too-large'],
      [zipSync({ 'app.json': strToU8(JSON.stringify({ ...tinyDocument(), root: 'nowhere' })) }), 'validation'],
      [zipSync({ 'app.json': strToU8('{not json') }), 'validation'],
      [strToU8('not a zip at all'), 'validation'],
    ];
    for (const [bytes, code] of attempts) {
      const error = await h.apps.importApp.execute({ principal: ada, bytes }).catch((e) => e);
      expect(error.code, JSON.stringify(error.message)).to.equal(code);
    }
    expect((await h.apps.listApps.execute({ principal: ada })).apps).to.have.length(0);
  });

  it('does not inflate past the declared size of an entry (a zip bomb stays small)', () => {
    const bomb = zipSync(
      { 'app.json': strToU8(JSON.stringify(tinyDocument())), 'app/bomb.js': new Uint8Array(20 * 1024 * 1024) },
      { level: 9 },
    );
    expect(bomb.byteLength).to.be.lessThan(100 * 1024);
    expect(() => new ZipAppArchive().unpack(bomb)).to.throw(/larger than/);
  });
});
