import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import { ZipAppArchive } from '../../../adapters/apps/zip-app-archive.js';
import { InvalidInput } from '../../../domain/errors.js';
import { tinyDocument } from '../../support/apps-documents.js';
import { appsHarness } from '../../support/apps-harness.js';
import { ada } from '../../support/guard-harness.js';

const SERVER = 'export default function handler() { return "a server file long enough to deflate well, well, well"; }\n'.repeat(20);

/** A real app file: app.json and one server file, deflated or stored. */
function archive(level: 0 | 6 = 6): Uint8Array {
  return zipSync({ 'app.json': strToU8(JSON.stringify(tinyDocument())), 'app/server.js': strToU8(SERVER) }, { level });
}

/** Where the pieces of entry `index` sit: its local header and its central directory record. */
function offsets(zip: Uint8Array, index: number): { local: number; central: number } {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.byteLength - 22;
  while (view.getUint32(eocd, true) !== 0x06054b50) eocd -= 1;
  let central = view.getUint32(eocd + 16, true);
  for (let i = 0; i < index; i += 1)
    central += 46 + view.getUint16(central + 28, true) + view.getUint16(central + 30, true) + view.getUint16(central + 32, true);
  return { local: view.getUint32(central + 42, true), central };
}

/** A copy of the archive with entry 1 (app/server.js) changed by `edit`. */
function lying(edit: (view: DataView, at: { local: number; central: number }, zip: Uint8Array) => void, level: 0 | 6 = 6): Uint8Array {
  const zip = archive(level).slice();
  edit(new DataView(zip.buffer), offsets(zip, 1), zip);
  return zip;
}

const unpack = (bytes: Uint8Array) => () => new ZipAppArchive().unpack(bytes);

describe('ZipAppArchive: entries are checked against their CRC-32 and sizes', () => {
  it('unpacks an honest archive, deflated or stored', () => {
    expect(new ZipAppArchive().unpack(archive(6)).files['server.js']).to.equal(SERVER);
    expect(new ZipAppArchive().unpack(archive(0)).files['server.js']).to.equal(SERVER);
  });

  it('refuses a CRC-32 that lies, in both headers or in one, naming the entry', () => {
    const both = lying((view, at) => {
      view.setUint32(at.local + 14, view.getUint32(at.local + 14, true) ^ 1, true);
      view.setUint32(at.central + 16, view.getUint32(at.central + 16, true) ^ 1, true);
    });
    expect(unpack(both)).to.throw(InvalidInput, /"app\/server.js" does not match its CRC-32/);
    const centralOnly = lying((view, at) => view.setUint32(at.central + 16, 0xdeadbeef, true));
    expect(unpack(centralOnly)).to.throw(InvalidInput, /"app\/server.js" has a CRC-32 in its local header that differs/);
  });

  it('refuses data that is not what the CRC says (a flipped byte in stored data)', () => {
    const flipped = lying((_view, at, zip) => {
      const data = at.local + 30 + 'app/server.js'.length;
      zip[data + 10]! ^= 0x20;
    }, 0);
    expect(unpack(flipped)).to.throw(InvalidInput, /"app\/server.js" does not match its CRC-32/);
  });

  it('refuses sizes that lie: smaller or larger in both headers, differing between them, or stored sizes that differ', () => {
    for (const delta of [-100, 100]) {
      const resized = lying((view, at) => {
        view.setUint32(at.local + 22, SERVER.length + delta, true);
        view.setUint32(at.central + 24, SERVER.length + delta, true);
      });
      expect(unpack(resized), `delta ${delta}`).to.throw(InvalidInput, /"app\/server.js"/);
    }
    const differing = lying((view, at) => view.setUint32(at.local + 22, SERVER.length - 1, true));
    expect(unpack(differing)).to.throw(InvalidInput, /"app\/server.js" declares sizes in its local header that differ/);
    const stored = lying((view, at) => {
      view.setUint32(at.local + 18, SERVER.length - 10, true);
      view.setUint32(at.central + 20, SERVER.length - 10, true);
    }, 0);
    expect(unpack(stored)).to.throw(InvalidInput, /"app\/server.js" is stored uncompressed, yet its two sizes differ/);
  });

  it('refuses truncated data: a compressed size past the archive, or an archive cut short', () => {
    const overreach = lying((view, at) => {
      view.setUint32(at.local + 18, 1_000_000, true);
      view.setUint32(at.central + 20, 1_000_000, true);
    });
    expect(unpack(overreach)).to.throw(InvalidInput, /"app\/server.js" declares more data than the archive holds/);
    const zip = archive();
    const cut = zip.slice(0, offsets(zip, 1).local + 60);
    expect(unpack(cut)).to.throw(InvalidInput);
  });

  it('refuses a name that appears twice', () => {
    const zip = zipSync({
      'app.json': strToU8(JSON.stringify(tinyDocument())),
      'app/a.js': strToU8('first'),
      'app/b.js': strToU8('second'),
    }).slice();
    const at = offsets(zip, 2);
    zip.set(strToU8('app/a.js'), at.local + 30);
    zip.set(strToU8('app/a.js'), at.central + 46);
    expect(unpack(zip)).to.throw(InvalidInput, /"app\/a.js" appears twice/);
  });
});

/** app.json of tinyDocument() as `zip -P secret` writes it: traditional PKWARE encryption (ZipCrypto), deflated. */
const ZIPCRYPTO = Buffer.from(
  'UEsDBBQACQAIAPSsfF0pLoMMuQAAADkBAAAIAAAAYXBwLmpzb276gQCyCEXILH6hRVfTBkkv6Mtye9el3oID9Lfl+UH6jiAAgxW2rTTtm2uku9TzE4TMiycdaOqTZY8l3pajgMqZ/EX20h8/HmTYyq2sqd8orDpyBSpDAvOYYYtFEbIPftoOEg3ImDm1Ii8b9blCeVkqFr2+kvjb5LvytfxuPiYmS08ZArrI7q2a+uSX8DmI2nJ/dxtdpVc6pTMAbmhwvK2OjufPiwlP5NaO7oqK6z/6N8bPxfc5YGeR81BLBwgpLoMMuQAAADkBAABQSwECHgMUAAkACAD0rHxdKS6DDLkAAAA5AQAACAAAAAAAAAABAAAApIEAAAAAYXBwLmpzb25QSwUGAAAAAAEAAQA2AAAA7wAAAAAA',
  'base64',
);

describe('ZipAppArchive: an encrypted entry is refused, never imported', () => {
  const ENCRYPTED = 0x0001;
  const STRONG = 0x0040;
  const MASKED_DIRECTORY = 0x2000;
  const setFlag = (view: DataView, at: number, bit: number) => view.setUint16(at, view.getUint16(at, true) | bit, true);

  it('refuses a file a zip tool encrypted, naming the entry', () => {
    expect(unpack(new Uint8Array(ZIPCRYPTO))).to.throw(InvalidInput, /"app.json" is encrypted/);
  });

  it('refuses the encryption flag (bit 0) or strong encryption (bit 6), in both headers or either one, even over plain data', () => {
    for (const [bit, name] of [
      [ENCRYPTED, 'encrypted'],
      [STRONG, 'strong encryption'],
      [MASKED_DIRECTORY, 'central directory encryption'],
    ] as const) {
      for (const where of ['both', 'local', 'central'] as const) {
        for (const level of [0, 6] as const) {
          const flagged = lying((view, at) => {
            if (where !== 'central') setFlag(view, at.local + 6, bit);
            if (where !== 'local') setFlag(view, at.central + 8, bit);
          }, level);
          expect(unpack(flagged), `${name} in ${where}, level ${level}`).to.throw(InvalidInput, /"app\/server.js" is encrypted/);
        }
      }
    }
  });

  it('refuses an AES-encrypted entry (its 0x9901 extra field), in either header', () => {
    const aes = new Uint8Array([0x02, 0x00, 0x41, 0x45, 0x03, 0x08, 0x00]);
    const zip = zipSync({
      'app.json': strToU8(JSON.stringify(tinyDocument())),
      'app/server.js': [strToU8(SERVER), { extra: { 0x9901: aes } }],
    });
    expect(unpack(zip)).to.throw(InvalidInput, /"app\/server.js" is encrypted/);
    // Only in the local header: the directory's record is rewritten to carry another extra field id.
    const localOnly = zip.slice();
    const view = new DataView(localOnly.buffer);
    const { central } = offsets(localOnly, 1);
    const extraAt = central + 46 + view.getUint16(central + 28, true);
    view.setUint16(extraAt, 0xcafe, true);
    expect(unpack(localOnly)).to.throw(InvalidInput, /"app\/server.js" is encrypted/);
  });

  it('imports nothing from an archive holding one encrypted entry among honest ones', async () => {
    const h = appsHarness();
    const flagged = lying((view, at) => {
      setFlag(view, at.local + 6, ENCRYPTED);
      setFlag(view, at.central + 8, ENCRYPTED);
    });
    const error = await h.apps.importApp.execute({ principal: ada, bytes: flagged }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(InvalidInput);
    expect((error as InvalidInput).code).to.equal('validation');
    expect((error as InvalidInput).message).to.match(/"app\/server.js" is encrypted.*nothing was imported/);
    expect((await h.apps.listApps.execute({ principal: ada })).apps).to.have.length(0);
  });
});
