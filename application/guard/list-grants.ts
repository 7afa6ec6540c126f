import type { UseCase } from '../../ports/use-case.js';
import type { GrantView, Paged } from '../../ports/use-cases/guard.js';
import type { GrantBook } from './grant-book.js';

/** `GET /grants`: the caller's active grants. */
export class ListGrants implements UseCase<Paged, { grants: ReadonlyArray<GrantView>; nextCursor: string | null }> {
  constructor(private readonly grants: GrantBook) {}

  async execute(query: Paged) {
    const page = await this.grants.activeOf(query.principal.subject, query.limit ?? 50, query.cursor ?? null);
    return {
      grants: page.grants.map((grant) => {
        const { inputDigest: _digest, evidence: _evidence, ...view } = grant.toPrimitives();
        return view;
      }),
      nextCursor: page.nextCursor,
    };
  }
}
