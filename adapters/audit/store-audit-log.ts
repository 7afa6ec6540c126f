import type { AuditEvent } from '../../domain/audit-event.js';
import type { AuditLog, AuditSink } from '../../ports/audit.js';
import type { RecordSet, Store } from '../../ports/store.js';

type StoredEvent = Omit<AuditEvent, 'id'>;

/** Audit events as records of the store, indexed by subject for `GET /activity`. */
export class StoreAuditLog implements AuditSink, AuditLog {
  private readonly events: RecordSet<StoredEvent>;

  constructor(store: Store) {
    this.events = store.records<StoredEvent>('audit');
  }

  async write(event: AuditEvent): Promise<void> {
    const { id, ...rest } = event;
    // Listed by subject only (`GET /activity`): each further label would cost every audited act an index write.
    await this.events.put({ id, data: rest, refs: { subject: event.subject } });
  }

  async list(subject: string, query: { limit?: number; cursor?: string | null }) {
    const page = await this.events.list({ refs: { subject }, limit: query.limit, cursor: query.cursor });
    return { events: page.items.map((record) => ({ id: record.id, ...record.data })), nextCursor: page.nextCursor };
  }
}
