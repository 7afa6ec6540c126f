import { DoorClient, type DoorClientPrimitives } from '../../domain/door/door-client.js';
import { isIdOf } from '../../domain/ids.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { doorClientShape } from './stored-shapes.js';

export type LoadedDoorClient = Loaded<'client', DoorClient, DoorClientPrimitives>;

/** Registered door clients, by `mcpc_` id. No person owns one. */
export class DoorClientBook extends AggregateBook<'client', DoorClient, DoorClientPrimitives> {
  constructor(records: RecordSet<DoorClientPrimitives>) {
    super(records, {
      collection: 'door-clients',
      key: 'client',
      noun: 'Door client',
      schema: doorClientShape,
      ...asPrimitives(DoorClient),
      refsOf: () => ({}),
      ownerOf: () => null,
    });
  }

  /** Null for an unknown id, and for a string no door client id can be (never asked of the store). */
  override async find(id: string): Promise<LoadedDoorClient | null> {
    return isIdOf('doorClient', id) ? super.find(id) : null;
  }
}
