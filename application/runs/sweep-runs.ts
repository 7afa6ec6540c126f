import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { RunDispatcher } from '../../ports/scheduler.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { ParkedApprovals } from './parked-approvals.js';
import type { ResumeRun } from './resume-run.js';
import type { RunBook } from './run-book.js';

export interface SweepSettings {
  /** A run queued this long without an executor taking it is handed over again (its dispatch was lost). */
  readonly requeueAfterMs: number;
}

/** What SweepRuns is built from. */
export interface SweepRunsDeps {
  readonly runs: RunBook;
  readonly parked: ParkedApprovals;
  readonly resume: ResumeRun;
  readonly dispatcher: RunDispatcher;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly logger: Logger;
  readonly settings: SweepSettings;
}

/**
 * Housekeeping every tick runs first. A running run whose lease lapsed lost its executor (the
 * instance crashed): it ends — cancelled if a stop was asked, else failed `interrupted` — and its
 * parked approvals are dropped; it is never left running forever, nor silently re-run. A waiting
 * run whose approvals all ended (answered or expired) goes on. A queued run nobody took is handed
 * out again; executors claim before running, so a double hand-over runs it once.
 */
export class SweepRuns {
  private readonly runs: RunBook;
  private readonly parked: ParkedApprovals;
  private readonly resume: ResumeRun;
  private readonly dispatcher: RunDispatcher;
  private readonly clock: Clock;
  private readonly audit: AuditTrail;
  private readonly logger: Logger;
  private readonly settings: SweepSettings;

  constructor(deps: SweepRunsDeps) {
    this.runs = deps.runs;
    this.parked = deps.parked;
    this.resume = deps.resume;
    this.dispatcher = deps.dispatcher;
    this.clock = deps.clock;
    this.audit = deps.audit;
    this.logger = deps.logger;
    this.settings = deps.settings;
  }

  async execute(): Promise<void> {
    const now = this.clock.now();
    const at = now.toISOString();
    for (const loaded of await this.runs.inState('running')) {
      if (!loaded.run.leaseExpiredAt(at)) continue;
      const ended = loaded.run.stopRequested ? loaded.run.cancel(at) : loaded.run.interrupt(at);
      if (!(await this.runs.swap(loaded, ended))) continue;
      const dropped = await this.parked.drop(ended.id);
      this.logger.warn('a run lost its executor and was ended', { runId: ended.id, holder: loaded.run.lease?.holder });
      await this.audit.record({
        subject: ended.owner.subject,
        action: 'run.interrupted',
        outcome: ended.state,
        details: { runId: ended.id, automationId: ended.automationId, droppedApprovals: dropped },
      });
    }
    for (const loaded of await this.runs.inState('waiting')) await this.resume.ifAnswered(loaded.run.id);
    const lost = (await this.runs.inState('queued')).filter(
      (loaded) => Date.parse(loaded.record.updatedAt) + this.settings.requeueAfterMs <= now.getTime(),
    );
    if (lost.length) await this.dispatcher.dispatch(lost.map((loaded) => loaded.run.id));
  }
}
