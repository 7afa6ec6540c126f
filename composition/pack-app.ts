import { ZipAppArchive } from '../adapters/apps/zip-app-archive.js';
import type { AppDocument } from '../domain/apps/app-document.js';
import { validateDocument } from '../domain/apps/validate-document.js';

/**
 * An app file (`application/vnd.porter.app`, what `POST /apps/import` takes and `GET
 * /apps/:id/export` gives): the document as `app.json` and its server files under `app/`. The
 * document is checked first, with the rules an import applies, so a file this makes is one the wire
 * accepts; a document that breaks them throws, listing what is wrong.
 */
export function packApp(document: AppDocument): Uint8Array {
  const checked = validateDocument(document);
  if (!checked.ok) {
    const issues = checked.issues.map((issue) => `${issue.path || '(document)'}: ${issue.message}`).join('; ');
    throw new TypeError(`packApp: the document breaks the app rules (${issues})`);
  }
  const archive = new ZipAppArchive();
  const bytes = archive.pack(checked.document);
  // The file's own limits (entries, sizes) are the import's: found out here, not by the wire.
  archive.unpack(bytes);
  return bytes;
}
