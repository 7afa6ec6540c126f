import { TurnsInFlight, type TurnsInFlightPrimitives } from '../../domain/usage/turns-in-flight.js';
import { AtomicityUnavailable } from '../../domain/errors.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { turnsInFlightShape } from './stored-shapes.js';

export type LoadedTurnsInFlight = Loaded<'turns', TurnsInFlight, TurnsInFlightPrimitives>;

/**
 * The turns in flight of every subject (and shared address), one record each, named by its key.
 * Every change is a compare-and-swap on the revision read (or an insert-if-absent for the first),
 * so turns racing for the last place on several instances get exactly the places left.
 */
export class TurnsInFlightBook extends AggregateBook<'turns', TurnsInFlight, TurnsInFlightPrimitives> {
  constructor(records: RecordSet<TurnsInFlightPrimitives>) {
    super(records, {
      collection: 'turns-in-flight',
      key: 'turns',
      noun: 'Turns in flight',
      schema: turnsInFlightShape,
      ...asPrimitives(TurnsInFlight),
      refsOf: () => ({}),
      ownerOf: () => null,
    });
  }

  /**
   * Writes `next` over what was read (`loaded`), or as the key's first record (`loaded` null): the
   * record as now stored, or null when another writer moved first.
   */
  async replace(loaded: LoadedTurnsInFlight | null, next: TurnsInFlight): Promise<LoadedTurnsInFlight | null> {
    if (loaded) return this.swap(loaded, next);
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('insert-if-absent on turns in flight');
    const props = next.toPrimitives();
    const record = await atomic.insertIfAbsent({ id: props.id, data: props, refs: {} });
    return record ? this.loaded(record) : null;
  }
}
