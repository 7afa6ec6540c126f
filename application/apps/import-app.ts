import { App } from '../../domain/apps/app.js';
import { InvalidAppDocument } from '../../domain/apps/app-errors.js';
import { validateDocument } from '../../domain/apps/validate-document.js';
import { admitServerCode } from '../../domain/apps/server-code-rule.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { AppArchive } from '../../ports/app-archive.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AppDetail } from '../../ports/use-cases/apps.js';
import type { AppBook } from './app-book.js';
import type { AppSharing } from './app-sharing.js';
import { detailOf } from './app-views.js';
import { contentHashOf } from './content-hash.js';

/** What ImportApp is built from. */
export interface ImportAppDeps {
  readonly book: AppBook;
  readonly archive: AppArchive;
  readonly sharing: AppSharing;
  readonly ids: Ids;
  readonly clock: Clock;
}

/**
 * An app file becomes a new app of the caller's: unpacked within the archive limits, checked
 * against the document rules before anything is stored, under a fresh id. Served state and pins
 * do not travel: the import is a tree app (graduate it again to serve it). An app file asking for
 * `scope: "shared"` is shared only when the importer may share; otherwise it is the importer's alone.
 * Server code (files under `app/`) comes in only for someone signed in.
 */
export class ImportApp implements UseCase<{ principal: Principal; bytes: Uint8Array }, AppDetail> {
  constructor(private readonly deps: ImportAppDeps) {}

  async execute({ principal, bytes }: { principal: Principal; bytes: Uint8Array }): Promise<AppDetail> {
    const contents = this.deps.archive.unpack(bytes);
    const manifest = contents.manifest;
    if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest))
      throw new InvalidInput('app.json must hold an app document object');
    const files = Object.keys(contents.files).length > 0 ? { files: contents.files } : null;
    if (files) admitServerCode(principal, 'import');
    const checked = validateDocument({ ...manifest, ui: 'tree', server: files });
    if (!checked.ok) throw new InvalidAppDocument('imported app', checked.issues);
    const document = await this.deps.sharing.admit(principal, checked.document);
    const app = App.create({
      id: this.deps.ids.mint('app'),
      owner: principal.subject,
      document,
      version: this.deps.ids.mint('version'),
      contentHash: contentHashOf(document),
      at: this.deps.clock.now().toISOString(),
    });
    await this.deps.book.insert(app, 'import');
    return detailOf(app);
  }
}
