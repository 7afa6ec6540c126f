import { Connection, type ConnectionPrimitives } from '../../domain/connections/connection.js';
import { AtomicityUnavailable, NotFound } from '../../domain/errors.js';
import type { RecordSet, StoredRecord } from '../../ports/store.js';

export interface LoadedConnection {
  readonly connection: Connection;
  readonly record: StoredRecord<ConnectionPrimitives>;
}

/**
 * Connections in the store, indexed by owner, toolkit, status and broker. Every change after
 * creation is a compare-and-swap on the revision that was read, and removal is a claim: a poll
 * racing a delete can never bring a removed connection back. Stores without them fail closed.
 */
export class ConnectionBook {
  constructor(private readonly records: RecordSet<ConnectionPrimitives>) {}

  async add(connection: Connection): Promise<void> {
    const props = connection.toPrimitives();
    await this.records.put({ id: props.id, data: props, refs: refsOf(props) });
  }

  async find(id: string): Promise<LoadedConnection | null> {
    const record = await this.records.get(id);
    return record ? { connection: Connection.fromPrimitives(record.data), record } : null;
  }

  /** The subject's connection, or not-found: someone else's id is never revealed. */
  async ownedBy(subject: string, id: string): Promise<LoadedConnection> {
    const loaded = await this.find(id);
    if (!loaded || loaded.connection.owner !== subject) throw new NotFound('Connection');
    return loaded;
  }

  /** The newer state, or null when someone else changed or removed the record first. */
  async move(from: LoadedConnection, to: Connection): Promise<LoadedConnection | null> {
    if (!this.records.atomic) throw new AtomicityUnavailable('compare-and-swap on connections');
    const props = to.toPrimitives();
    const record = await this.records.atomic.compareAndSwap(from.record.id, from.record.revision, { data: props, refs: refsOf(props) });
    return record ? { connection: to, record } : null;
  }

  /** True for the single caller whose read still matched; the record is gone afterwards. */
  async consume(from: LoadedConnection): Promise<boolean> {
    if (!this.records.claim) throw new AtomicityUnavailable('atomic claims on connections');
    return this.records.claim(from.record);
  }

  async page(owner: string, limit: number, cursor: string | null): Promise<{ items: LoadedConnection[]; nextCursor: string | null }> {
    const page = await this.records.list({ refs: { owner }, limit, cursor });
    return { items: page.items.map((record) => ({ connection: Connection.fromPrimitives(record.data), record })), nextCursor: page.nextCursor };
  }

  /** The owner's newest active account of the toolkit at this broker, if any. */
  async activeOf(owner: string, toolkit: string, broker: string): Promise<LoadedConnection | null> {
    const page = await this.records.list({ refs: { owner, toolkit, status: 'active', broker }, limit: 1 });
    const record = page.items[0];
    return record ? { connection: Connection.fromPrimitives(record.data), record } : null;
  }
}

function refsOf(props: ConnectionPrimitives): Record<string, string> {
  return { owner: props.owner, toolkit: props.toolkit, status: props.status, broker: props.broker };
}
