import { Connection, type ConnectionPrimitives } from '../../domain/connections/connection.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { connectionShape } from './stored-shapes.js';

export type LoadedConnection = Loaded<'connection', Connection, ConnectionPrimitives>;

/**
 * Connections in the store, indexed by owner, toolkit, status and broker. Every change after
 * creation is a swap on the revision that was read, and removal is a claim: a poll racing a
 * delete can never bring a removed connection back. Stores without them fail closed.
 */
export class ConnectionBook extends AggregateBook<'connection', Connection, ConnectionPrimitives> {
  constructor(records: RecordSet<ConnectionPrimitives>) {
    super(records, {
      collection: 'connections',
      key: 'connection',
      noun: 'Connection',
      schema: connectionShape,
      ...asPrimitives(Connection),
      refsOf: (props) => ({ owner: props.owner, toolkit: props.toolkit, status: props.status, broker: props.broker }),
      ownerOf: (connection) => connection.owner,
    });
  }

  /** True for the single caller whose read still matched; the record is gone afterwards. */
  consume(loaded: LoadedConnection): Promise<boolean> {
    return this.consumeRecord(loaded);
  }

  /** The owner's newest active account of the toolkit at this broker, if any. */
  async activeOf(owner: string, toolkit: string, broker: string): Promise<LoadedConnection | null> {
    return (await this.list({ owner, toolkit, status: 'active', broker }, 1)).items[0] ?? null;
  }
}
