import type { Run } from '../../domain/runs/run.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { RunBook } from './run-book.js';
import type { RunSlotsBook } from './run-slots-book.js';

/**
 * Whether a run may begin: `holds` (it has a slot already, or needs none: a dry run acts on
 * nothing), `admitted` (it took a free one now) or `full` (its automation has `limit` runs in
 * flight).
 */
export type Admission = 'holds' | 'admitted' | 'full';

/**
 * An automation's concurrency, decided by the store. A run takes one of its automation's slots
 * before it first begins and lets it go when it ends (RunFollowUp). A slot whose run ended without
 * letting go (its instance died in between) is freed the next time the slots are full.
 */
export class RunAdmission {
  constructor(
    private readonly slots: RunSlotsBook,
    private readonly runs: RunBook,
  ) {}

  async admit(run: Run): Promise<Admission> {
    if (run.dryRun) return 'holds';
    const limit = run.concurrency.limit;
    return retryOnConflict<Admission>(
      async () => {
        const loaded = await this.slots.of(run.automationId);
        if (loaded.slots.holds(run.id)) return 'holds';
        const admitted = loaded.slots.admit(run.id, limit);
        if (admitted) return (await this.slots.swap(loaded, admitted)) ? 'admitted' : LOST_RACE;
        const ended = await this.endedAmong(loaded.slots.holders);
        if (ended.length === 0) return 'full';
        const freed = loaded.slots.without(ended);
        const next = freed.admit(run.id, limit) ?? freed;
        if (!(await this.slots.swap(loaded, next))) return LOST_RACE;
        return next.holds(run.id) ? 'admitted' : 'full';
      },
      // Only admissions that win and releases write, so a lost round means one of them moved on;
      // past these rounds the run stays queued and the next release or sweep hands it over again.
      { attempts: 16, exhausted: () => 'full' },
    );
  }

  /** The run lets its slot go (nothing when it held none). */
  async release(run: Run): Promise<void> {
    if (run.dryRun) return;
    await retryOnConflict(
      async () => {
        const loaded = await this.slots.find(run.automationId);
        if (!loaded || !loaded.slots.holds(run.id)) return undefined;
        return (await this.slots.swap(loaded, loaded.slots.release(run.id))) ? undefined : LOST_RACE;
      },
      { attempts: 16, what: 'The run slots' },
    );
  }

  private async endedAmong(holders: ReadonlyArray<string>): Promise<string[]> {
    const ended: string[] = [];
    for (const id of holders) {
      const loaded = await this.runs.find(id);
      if (!loaded || loaded.run.terminal) ended.push(id);
    }
    return ended;
  }
}
