import type { UseCase } from '../../ports/use-case.js';
import type { AppsUseCases, AppSummary } from '../../ports/use-cases/apps.js';
import type { Principal } from '../../domain/principal.js';
import type { AppBook } from './app-book.js';
import { summaryOf } from './app-views.js';
import type { HeldDeletions } from '../deletions/deletable.js';

/** The caller's apps, newest first; one waiting out its undo window is left out. */
export class ListApps implements UseCase<
  Parameters<AppsUseCases['listApps']['execute']>[0],
  { apps: AppSummary[]; nextCursor: string | null }
> {
  constructor(
    private readonly book: AppBook,
    private readonly held?: HeldDeletions,
  ) {}

  async execute({ principal, limit, cursor }: { principal: Principal; limit?: number; cursor?: string | null }) {
    const page = await this.book.list({ owner: principal.subject }, limit ?? 50, cursor ?? null);
    const held = (await this.held?.heldIds(principal.subject, 'app')) ?? new Set<string>();
    return { apps: page.items.filter(({ app }) => !held.has(app.id)).map(({ app }) => summaryOf(app)), nextCursor: page.nextCursor };
  }
}
