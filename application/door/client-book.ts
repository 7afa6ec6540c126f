import { DoorClient, type DoorClientPrimitives } from '../../domain/door/door-client.js';
import { isIdOf } from '../../domain/ids.js';
import type { RecordSet } from '../../ports/store.js';

/** Registered door clients, by `mcpc_` id. */
export class DoorClientBook {
  constructor(private readonly records: RecordSet<DoorClientPrimitives>) {}

  async save(client: DoorClient): Promise<void> {
    await this.records.put({ id: client.id, data: client.toPrimitives() });
  }

  /** Null for an unknown id, and for a string no door client id can be (never asked of the store). */
  async find(id: string): Promise<DoorClient | null> {
    if (!isIdOf('doorClient', id)) return null;
    const record = await this.records.get(id);
    return record ? DoorClient.fromPrimitives(record.data) : null;
  }
}
