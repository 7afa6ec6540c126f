import { strToU8, unzipSync, zipSync, type UnzipFileInfo, type Zippable } from 'fflate';
import { SERVER_PATH, type AppDocument } from '../../domain/apps/app-document.js';
import { InvalidInput, PayloadTooLarge } from '../../domain/errors.js';
import { assertJsonDepth } from '../../domain/json-depth.js';
import { ARCHIVE_LIMITS, type AppArchive, type ArchiveContents } from '../../ports/app-archive.js';
import { checkInflated, declaredEntries } from './zip-entries.js';

type Limits = { -readonly [K in keyof typeof ARCHIVE_LIMITS]: number };

/**
 * The app file as a zip (fflate): `app.json` holds the document without its server files, which
 * sit under `app/`. Unpacking checks every entry before inflating it — its path (only `app.json`
 * and safe `app/` paths), its declared size against the caps, its local header against the
 * central directory — and fflate inflates into buffers of exactly the declared size, so a lying
 * entry cannot grow past what was checked; what it inflated to must then match its declared size
 * and CRC-32, or nothing is imported.
 */
export class ZipAppArchive implements AppArchive {
  private readonly limits: Limits;

  constructor(limits: Partial<Limits> = {}) {
    this.limits = { ...ARCHIVE_LIMITS, ...limits };
  }

  pack(document: AppDocument): Uint8Array {
    const entries: Zippable = { 'app.json': strToU8(JSON.stringify({ ...document, server: null }, null, 2)) };
    for (const [path, content] of Object.entries(document.server?.files ?? {})) entries[`app/${path}`] = strToU8(content);
    return zipSync(entries, { level: 6, mtime: new Date('2020-01-01T00:00:00Z') });
  }

  unpack(bytes: Uint8Array): ArchiveContents {
    const { limits } = this;
    if (bytes.byteLength > limits.maxArchiveBytes) throw new PayloadTooLarge(`An app file is at most ${limits.maxArchiveBytes} bytes`);
    const declared = declaredEntries(bytes);
    let entries = 0;
    let total = 0;
    let current = '';
    const filter = (file: UnzipFileInfo): boolean => {
      entries += 1;
      current = file.name;
      if (entries > limits.maxEntries) throw new PayloadTooLarge(`An app file holds at most ${limits.maxEntries} entries`);
      if (file.name.endsWith('/') && file.originalSize === 0) {
        if (file.name !== 'app/' && !(file.name.startsWith('app/') && SERVER_PATH.test(file.name.slice(4, -1)))) throw unsafe(file.name);
        return false;
      }
      const cap = file.name === 'app.json' ? limits.maxManifestBytes : limits.maxFileBytes;
      if (file.name !== 'app.json' && !(file.name.startsWith('app/') && SERVER_PATH.test(file.name.slice(4)))) throw unsafe(file.name);
      if (file.originalSize > cap) throw new PayloadTooLarge(`${file.name} is larger than ${cap} bytes once unpacked`);
      total += file.originalSize;
      if (total > limits.maxTotalBytes) throw new PayloadTooLarge(`An app file unpacks to at most ${limits.maxTotalBytes} bytes`);
      return true;
    };
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes, { filter });
    } catch (error) {
      if (error instanceof PayloadTooLarge || error instanceof InvalidInput) throw error;
      const entry = current ? ` at its entry "${current.slice(0, 200)}"` : '';
      throw new InvalidInput(
        `The app file is not a readable zip archive${entry} (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    for (const [name, data] of Object.entries(files)) {
      const entry = declared.get(name);
      if (!entry) throw new InvalidInput(`The app file's entry "${name.slice(0, 200)}" is missing from its central directory`);
      checkInflated(entry, data);
    }
    const manifestBytes = files['app.json'];
    if (!manifestBytes) throw new InvalidInput('The app file has no app.json');
    let manifest: unknown;
    try {
      const json = text('app.json', manifestBytes);
      assertJsonDepth(json, 'app.json');
      manifest = JSON.parse(json);
    } catch (error) {
      if (error instanceof InvalidInput) throw error;
      throw new InvalidInput('app.json is not valid JSON');
    }
    const server: Record<string, string> = {};
    for (const [name, content] of Object.entries(files)) if (name !== 'app.json') server[name.slice(4)] = text(name, content);
    return { manifest, files: server };
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function text(name: string, bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new InvalidInput(`${name} is not UTF-8 text`);
  }
}

function unsafe(name: string): InvalidInput {
  return new InvalidInput(`The app file holds "${name.slice(0, 200)}": only app.json and safe paths under app/ are allowed`);
}
