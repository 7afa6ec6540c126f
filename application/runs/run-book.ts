import { Run, type StoredRunPrimitives } from '../../domain/runs/run.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import { AtomicityUnavailable } from '../../domain/errors.js';
import type { RecordSet } from '../../ports/store.js';
import type { Loaded } from '../shared/aggregate-book.js';
import { TranscriptBook } from '../shared/transcript-book.js';
import { runShape } from './stored-shapes.js';
import { defined } from '../../domain/defined.js';

export type LoadedRun = Loaded<'run', Run, StoredRunPrimitives>;

/**
 * Runs in the store, indexed by automation, owner and state, and their transcripts (AI SDK UI
 * messages, indexed by run). Every state change is a swap on the revision read: an executor, a
 * stop on another instance and the crash sweep never both win.
 */
export class RunBook extends TranscriptBook<'run', Run, StoredRunPrimitives> {
  constructor(records: RecordSet<StoredRunPrimitives>, messages: RecordSet<UiMessage>) {
    super(records, messages, {
      collection: 'runs',
      key: 'run',
      noun: 'Run',
      schema: runShape,
      fromPrimitives: (props) => Run.fromPrimitives(props),
      toPrimitives: (run) => run.toStored(),
      refsOf: (props) => ({
        automation: props.automationId,
        owner: props.owner.subject,
        state: props.state,
        ...defined({ followUp: props.followUp === 'due' ? 'due' : undefined }),
      }),
      ownerOf: (run) => run.owner.subject,
    });
  }

  /** Adds a run unless one with its id exists: for a schedule slot, this is the slot's claim. */
  async addIfAbsent(run: Run): Promise<boolean> {
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('insert-if-absent on runs');
    const props = this.mapping.toPrimitives(run);
    return (await atomic.insertIfAbsent({ id: props.id, data: props, refs: this.mapping.refsOf(props) })) !== null;
  }

  /** Adds every run whose id is absent, each decided atomically; answers the ids this call added. */
  async addManyIfAbsent(runs: ReadonlyArray<Run>): Promise<string[]> {
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('insert-if-absent on runs');
    const inserted = await atomic.insertManyIfAbsent(
      runs.map((run) => {
        const props = this.mapping.toPrimitives(run);
        return { id: props.id, data: props, refs: this.mapping.refsOf(props) };
      }),
    );
    return inserted.map((record) => record.id);
  }

  /** Every run in a state (the sweep reads running, waiting and queued runs, which are few). */
  inState(state: StoredRunPrimitives['state']): Promise<LoadedRun[]> {
    return this.all({ state });
  }

  /** The queued runs of one automation, oldest first: who goes next when a slot frees. */
  async queuedOf(automationId: string): Promise<LoadedRun[]> {
    return (await this.all({ automation: automationId, state: 'queued' })).reverse();
  }

  /** Ended runs whose follow-up (slot, next run, completion webhook) is still to do. */
  followUpsDue(): Promise<LoadedRun[]> {
    return this.all({ followUp: 'due' });
  }
}
