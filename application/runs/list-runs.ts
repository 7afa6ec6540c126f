import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { RunView } from '../../ports/use-cases/runs.js';
import type { RunBook } from './run-book.js';
import { runView } from './run-view.js';

type ListInput = { principal: Principal; automationId?: string; limit?: number; cursor?: string | null };

/** `GET /runs?automationId`: the caller's runs (of one automation), newest first. */
export class ListRuns implements UseCase<ListInput, { runs: RunView[]; nextCursor: string | null }> {
  constructor(private readonly runs: RunBook) {}

  async execute(input: ListInput) {
    const refs: Record<string, string> = input.automationId
      ? { automation: input.automationId, owner: input.principal.subject }
      : { owner: input.principal.subject };
    const page = await this.runs.list(refs, input.limit ?? 50, input.cursor ?? null);
    return { runs: page.items.map(({ run }) => runView(run)), nextCursor: page.nextCursor };
  }
}
