import { Run, type RunPrimitives } from '../../domain/runs/run.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import { AtomicityUnavailable, Conflict, NotFound } from '../../domain/errors.js';
import { everyRecord, type RecordSet, type StoredRecord } from '../../ports/store.js';

export interface LoadedRun {
  readonly run: Run;
  readonly record: StoredRecord<RunPrimitives>;
}

/**
 * Runs in the store, indexed by automation, owner and state, and their transcripts (AI SDK UI
 * messages, indexed by run). Every state change is a compare-and-swap on the revision read: an
 * executor, a stop on another instance and the crash sweep never both win. A store without
 * atomic operations cannot promise that, so runs fail closed on it.
 */
export class RunBook {
  constructor(
    private readonly records: RecordSet<RunPrimitives>,
    private readonly messages: RecordSet<UiMessage>,
  ) {}

  /** Adds a run unless one with its id exists: for a schedule slot, this is the slot's claim. */
  async addIfAbsent(run: Run): Promise<boolean> {
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('insert-if-absent on runs');
    const props = run.toPrimitives();
    return (await atomic.insertIfAbsent({ id: props.id, data: props, refs: refsOf(props) })) !== null;
  }

  /** Adds every run whose id is absent, each decided atomically; answers the ids this call added. */
  async addManyIfAbsent(runs: ReadonlyArray<Run>): Promise<string[]> {
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('insert-if-absent on runs');
    const inserted = await atomic.insertManyIfAbsent(
      runs.map((run) => {
        const props = run.toPrimitives();
        return { id: props.id, data: props, refs: refsOf(props) };
      }),
    );
    return inserted.map((record) => record.id);
  }

  async find(id: string): Promise<LoadedRun | null> {
    const record = await this.records.get(id);
    return record ? { run: Run.fromPrimitives(record.data), record } : null;
  }

  /** The owner's run, or not-found (someone else's id is never revealed). */
  async ownedBy(subject: string, id: string): Promise<LoadedRun> {
    const loaded = await this.find(id);
    if (!loaded || loaded.run.owner.subject !== subject) throw new NotFound('Run');
    return loaded;
  }

  /** True for the single caller whose read still matched. */
  async move(from: LoadedRun, to: Run): Promise<LoadedRun | null> {
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('compare-and-swap on runs');
    const props = to.toPrimitives();
    const record = await atomic.compareAndSwap(props.id, from.record.revision, { data: props, refs: refsOf(props) });
    return record ? { run: to, record } : null;
  }

  /**
   * Applies `change` to the current revision, retrying on a lost race; null when the run is gone
   * or `change` declines (returns null). Returns the run unchanged when `change` changes nothing.
   */
  async update(id: string, change: (run: Run) => Run | null): Promise<Run | null> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const loaded = await this.find(id);
      if (!loaded) return null;
      const changed = change(loaded.run);
      if (!changed) return null;
      if (changed === loaded.run) return changed;
      if (await this.move(loaded, changed)) return changed;
    }
    throw new Conflict('The run kept changing under this request; try again');
  }

  async list(refs: Record<string, string>, limit: number, cursor: string | null): Promise<{ runs: Run[]; nextCursor: string | null }> {
    const page = await this.records.list({ refs, limit, cursor });
    return { runs: page.items.map((record) => Run.fromPrimitives(record.data)), nextCursor: page.nextCursor };
  }

  /** Every run in a state (the sweep reads running, waiting and queued runs, which are few). */
  async inState(state: RunPrimitives['state']): Promise<LoadedRun[]> {
    return (await everyRecord(this.records, { state })).map((record) => ({ run: Run.fromPrimitives(record.data), record }));
  }

  /** The run's transcript, oldest first. */
  async messagesOf(runId: string): Promise<UiMessage[]> {
    return (await everyRecord(this.messages, { run: runId })).map((record) => record.data).reverse();
  }

  async putMessage(runId: string, message: UiMessage): Promise<void> {
    await this.messages.put({ id: message.id, data: message, refs: { run: runId } });
  }
}

function refsOf(props: RunPrimitives): Record<string, string> {
  return { automation: props.automationId, owner: props.owner.subject, state: props.state };
}
