import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { RunView, StopRequest } from '../../ports/use-cases/runs.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { ParkedApprovals } from './parked-approvals.js';
import type { RunBook } from './run-book.js';
import type { RunFollowUp } from './run-follow-up.js';
import { runView } from './run-view.js';

export interface StopSettings {
  /** How long a stop waits for the executor to finish its current step before answering anyway. */
  readonly waitMs: number;
  /** How often it reads the stored run meanwhile (the executor may be on another instance). */
  readonly pollMs: number;
}

/** What StopRun is built from. */
export interface StopRunDeps {
  readonly runs: RunBook;
  readonly parked: ParkedApprovals;
  /** A run the stop itself ended lets its slot go and sends its completion webhook. */
  readonly followUp: RunFollowUp;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly settings: StopSettings;
}

/**
 * `POST /runs/:id/stop`, cooperative. A run nobody executes (queued, waiting) is cancelled at once;
 * a running one is marked, and its executor — on this instance or another — finishes the current
 * step, lets its tool calls drain, drops the run's parked approvals and ends it cancelled. The
 * answer waits for that end (unless `wait: false`, for the door's `tasks/cancel`, which is only acknowledged), so stopping twice answers the same: the cancelled run. A run that
 * already ended is answered as it is.
 */
export class StopRun implements UseCase<StopRequest, RunView> {
  constructor(private readonly deps: StopRunDeps) {}

  async execute(input: StopRequest): Promise<RunView> {
    const { run: before } = await this.deps.runs.ownedBy(input.principal.subject, input.runId);
    const now = this.deps.clock.now().toISOString();
    // Whether this stop's own write ended the run: of stops racing each other exactly one did, and
    // only that one drops the parked approvals and writes the audit event.
    let ended = false;
    const after =
      (await this.deps.runs.update(input.runId, (run) => {
        const next = run.requestStop(now);
        ended = next !== run && next.terminal;
        return next;
      })) ?? before;
    if (after.terminal) {
      if (ended) {
        const dropped = await this.deps.parked.drop(after.id);
        await this.deps.audit.record({
          subject: after.owner.subject,
          action: 'run.stopped',
          outcome: 'cancelled',
          details: { runId: after.id, automationId: after.automationId, droppedApprovals: dropped },
        });
        await this.deps.followUp.after(after.id);
      }
      return runView(after);
    }
    if (input.wait === false) return runView(after);
    // The wait is counted in polls, not read off the clock: it is a duration, and a Clock may be
    // one a test holds still.
    let current = after;
    for (let waited = 0; !current.terminal && waited < this.deps.settings.waitMs; waited += this.deps.settings.pollMs) {
      await new Promise((resolve) => setTimeout(resolve, this.deps.settings.pollMs));
      current = (await this.deps.runs.find(input.runId))?.run ?? current;
    }
    return runView(current);
  }
}
