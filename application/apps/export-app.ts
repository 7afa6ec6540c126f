import type { Principal } from '../../domain/principal.js';
import type { AppArchive } from '../../ports/app-archive.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AppBook } from './app-book.js';

/** The app as an app file: `app.json` (the document without server files) and `app/` (them). */
export class ExportApp implements UseCase<{ principal: Principal; appId: string }, { filename: string; bytes: Uint8Array }> {
  constructor(
    private readonly book: AppBook,
    private readonly archive: AppArchive,
  ) {}

  async execute({ principal, appId }: { principal: Principal; appId: string }) {
    const { app } = await this.book.visibleTo(principal, appId);
    const slug =
      app.document.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 60) || 'app';
    return { filename: `${slug}.porter-app`, bytes: this.archive.pack(app.document) };
  }
}
