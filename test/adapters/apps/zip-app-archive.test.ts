import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import { ZipAppArchive } from '../../../adapters/apps/zip-app-archive.js';
import { InvalidInput } from '../../../domain/errors.js';
import { tinyDocument } from '../../support/apps-documents.js';

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
