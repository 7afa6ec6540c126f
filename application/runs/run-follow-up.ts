import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { RunDispatcher } from '../../ports/scheduler.js';
import type { RecordCompletionWebhook } from './record-completion-webhook.js';
import type { RunAdmission } from './run-admission.js';
import type { RunBook } from './run-book.js';

/** What RunFollowUp is built from. */
export interface RunFollowUpDeps {
  readonly runs: RunBook;
  readonly admission: RunAdmission;
  readonly webhooks: RecordCompletionWebhook;
  readonly dispatcher: RunDispatcher;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * What follows a run's end, wherever it ended (its executor, a stop, the crash sweep): its
 * concurrency slot is let go and the runs queued behind it take the free slots, oldest first, and
 * its completion webhook is recorded. The run stays marked (`followUp: due`) until all of it is
 * done, so when an instance dies in between, the sweep does it again; every step is idempotent.
 * It never throws: a failure is logged and left to the sweep.
 */
export class RunFollowUp {
  constructor(private readonly deps: RunFollowUpDeps) {}

  async after(runId: string): Promise<void> {
    try {
      const loaded = await this.deps.runs.find(runId);
      if (!loaded?.run.terminal || !loaded.run.followUpDue) return;
      const run = loaded.run;
      if (!run.dryRun) {
        await this.deps.admission.release(run);
        await this.letQueuedGo(run.automationId);
        await this.deps.webhooks.forEnded(run);
      }
      await this.deps.runs.update(runId, (current) => current.followedUp());
    } catch (error) {
      this.deps.logger.warn('what follows a run could not be finished; the sweep will', {
        runId,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** The automation's queued runs take the free slots, oldest first, and are handed to executors. */
  async letQueuedGo(automationId: string): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    for (const { run } of await this.deps.runs.queuedOf(automationId)) {
      const admission = await this.deps.admission.admit(run);
      if (admission === 'full') return;
      // A run that holds its slot already is waiting for its retry or was handed over before.
      if (admission === 'admitted')
        await this.deps.dispatcher.dispatch([run.id], run.dueAt(now) ? undefined : new Date(run.nextAttemptAt!));
    }
  }
}
