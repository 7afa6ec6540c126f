import { RunSlots, type RunSlotsPrimitives } from '../../domain/runs/run-slots.js';
import { AtomicityUnavailable } from '../../domain/errors.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, type Loaded } from '../shared/aggregate-book.js';
import { runSlotsShape } from './stored-shapes.js';

/** RunSlots as stored: one record per automation, named by the automation's id. */
type StoredSlots = RunSlotsPrimitives & { readonly id: string };

export type LoadedSlots = Loaded<'slots', RunSlots, StoredSlots>;

/**
 * The concurrency slots of every automation, one record each (its id is the automation's). Every
 * change is a swap on the revision read, so admissions racing on several instances have exactly
 * `limit` winners.
 */
export class RunSlotsBook extends AggregateBook<'slots', RunSlots, StoredSlots> {
  constructor(records: RecordSet<StoredSlots>) {
    super(records, {
      collection: 'run-slots',
      key: 'slots',
      noun: 'Run slots',
      schema: runSlotsShape,
      fromPrimitives: ({ automationId, holders }) => RunSlots.fromPrimitives({ automationId, holders }),
      toPrimitives: (slots) => ({ id: slots.toPrimitives().automationId, ...slots.toPrimitives() }),
      refsOf: () => ({}),
      ownerOf: () => null,
    });
  }

  /** The automation's slots, written empty first when it has none yet (of racing writers, one inserts). */
  async of(automationId: string): Promise<LoadedSlots> {
    const found = await this.find(automationId);
    if (found) return found;
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('insert-if-absent on run slots');
    const empty = this.mapping.toPrimitives(RunSlots.empty(automationId));
    await atomic.insertIfAbsent({ id: automationId, data: empty, refs: {} });
    const loaded = await this.find(automationId);
    if (!loaded) throw new AtomicityUnavailable('reading back run slots');
    return loaded;
  }
}
