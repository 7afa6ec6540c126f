import { UsageTally, type UsageTallyPrimitives } from '../../domain/usage/usage-tally.js';
import { AtomicityUnavailable } from '../../domain/errors.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { usageTallyShape } from './stored-shapes.js';

export type LoadedTally = Loaded<'tally', UsageTally, UsageTallyPrimitives>;

/**
 * Usage tallies, one record per budget and key (`turns:<subject>`, `writesPerRun:<run>`). Every
 * change is a compare-and-swap on the revision read (or an insert-if-absent for the first), so
 * instances racing for a subject's last unit have exactly one winner.
 */
export class UsageBook extends AggregateBook<'tally', UsageTally, UsageTallyPrimitives> {
  constructor(records: RecordSet<UsageTallyPrimitives>) {
    super(records, {
      collection: 'usage',
      key: 'tally',
      noun: 'Usage',
      schema: usageTallyShape,
      ...asPrimitives(UsageTally),
      refsOf: (props) => ({ budget: props.budget }),
      ownerOf: () => null,
    });
  }

  /**
   * Writes `next` over what was read (`loaded`), or as the first tally of its id when none was
   * (`loaded` null). False when another writer moved first.
   */
  async replace(loaded: LoadedTally | null, next: UsageTally): Promise<boolean> {
    if (loaded) return (await this.swap(loaded, next)) !== null;
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('insert-if-absent on usage tallies');
    const props = next.toPrimitives();
    return (await atomic.insertIfAbsent({ id: props.id, data: props, refs: this.mapping.refsOf(props) })) !== null;
  }
}
