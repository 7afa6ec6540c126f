import { aggregateOf } from '../aggregate.js';

/**
 * The concurrency slots of one automation: the runs that hold one (at most the automation's
 * limit). A run takes a slot before it first begins and keeps it until it ends, through approvals
 * it waits for and the backoff before a retry, so "limit 1" means one after another. Every change
 * is a compare-and-swap on this one record, so the store picks the winner across instances.
 */
export interface RunSlotsPrimitives {
  readonly automationId: string;
  readonly holders: ReadonlyArray<string>;
}

export class RunSlots extends aggregateOf<RunSlotsPrimitives>().reading('holders') {
  private constructor(props: RunSlotsPrimitives) {
    super(props);
  }

  static empty(automationId: string): RunSlots {
    return new RunSlots({ automationId, holders: [] });
  }

  static fromPrimitives(props: RunSlotsPrimitives): RunSlots {
    return new RunSlots(props);
  }

  holds(runId: string): boolean {
    return this.props.holders.includes(runId);
  }

  /** The run takes a free slot; the same slots when it already holds one; null when all `limit` are taken. */
  admit(runId: string, limit: number): RunSlots | null {
    if (this.holds(runId)) return this;
    if (this.props.holders.length >= limit) return null;
    return this.with({ holders: [...this.props.holders, runId] });
  }

  /** The run lets its slot go; the same slots when it held none. */
  release(runId: string): RunSlots {
    if (!this.holds(runId)) return this;
    return this.with({ holders: this.props.holders.filter((id) => id !== runId) });
  }

  /** Slots whose run ended without letting go (its instance died in between) are freed. */
  without(ended: ReadonlyArray<string>): RunSlots {
    const holders = this.props.holders.filter((id) => !ended.includes(id));
    return holders.length === this.props.holders.length ? this : this.with({ holders });
  }
}
