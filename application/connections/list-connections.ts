import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ConnectionList, ConnectionView } from '../../ports/use-cases/connections.js';
import type { ConnectionBook } from './connection-book.js';
import type { ConnectionRefresh } from './connection-refresh.js';
import { viewOf } from './connection-view.js';
import type { HeldDeletions } from '../deletions/deletable.js';

/** `GET /connections`: the caller's connections, newest first; open flows are brought up to date. */
export class ListConnections implements UseCase<{ principal: Principal; limit?: number; cursor?: string | null }, ConnectionList> {
  constructor(
    private readonly book: ConnectionBook,
    private readonly refresh: ConnectionRefresh,
    private readonly held?: HeldDeletions,
  ) {}

  async execute(input: { principal: Principal; limit?: number; cursor?: string | null }): Promise<ConnectionList> {
    this.refresh.assertConfigured();
    const page = await this.book.list({ owner: input.principal.subject }, input.limit ?? 50, input.cursor ?? null);
    const connections: ConnectionView[] = [];
    // One being disconnected (within its undo window) is left out.
    const held = (await this.held?.heldIds(input.principal.subject, 'connection')) ?? new Set<string>();
    for (const loaded of page.items) {
      if (held.has(loaded.connection.id)) continue;
      // Only open flows are asked about here, so a long list costs one broker call per pending flow.
      const current = loaded.connection.status === 'initiated' ? await this.refresh.refresh(loaded) : loaded.connection;
      if (current) connections.push(viewOf(current));
    }
    return { connections, nextCursor: page.nextCursor };
  }
}
