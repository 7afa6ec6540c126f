import type { Run } from '../../domain/runs/run.js';
import type { Clock } from '../../ports/clock.js';
import type { InstanceLiveness, LiveMarks } from '../../ports/liveness.js';
import type { Logger } from '../../ports/logger.js';
import type { RunDispatcher, WebhookDispatcher } from '../../ports/scheduler.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { CompletionWebhookBook } from './completion-webhook-book.js';
import type { ParkedApprovals } from './parked-approvals.js';
import type { ResumeRun } from './resume-run.js';
import type { LoadedRun, RunBook } from './run-book.js';
import type { RunFollowUp } from './run-follow-up.js';

/** Lost runs taken back at once: a slot's worth from a dead instance goes in a few batches. */
const RECOVER_AT_ONCE = 16;

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
  readonly followUp: RunFollowUp;
  readonly webhooks: CompletionWebhookBook;
  readonly webhookDispatcher: WebhookDispatcher;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly logger: Logger;
  readonly settings: SweepSettings;
  /** The engine's liveness marks (PostgreSQL; `NoInstanceLiveness`: a crash is told by a lapsed lease alone). */
  readonly liveness: InstanceLiveness;
}

/**
 * Housekeeping every tick runs after its slots. A running run whose lease lapsed, or whose holder's
 * liveness mark is gone, lost its executor (the instance died): its attempt ends `interrupted`
 * and, under its retry policy, it is handed out again at once to go on from its transcript
 * (`Run.interrupt`); out of retries it ends failed `interrupted` (cancelled if a stop was asked)
 * and its parked approvals are dropped. It is never left running forever. A waiting
 * run whose approvals all ended (answered or expired) goes on. A queued run nobody took, or whose
 * retry is due, is handed out again; executors claim before running, so a double hand-over runs it
 * once. A run that ended without what follows its end (slot, next run, completion webhook) gets it
 * now, and completion webhooks due for another attempt are handed to a sender: after a restart,
 * the tick is what carries retries on.
 */
export class SweepRuns {
  /** The marks seen at the last watch: one gone since is an instance that died. */
  private seen: ReadonlySet<string> | null = null;

  constructor(private readonly deps: SweepRunsDeps) {}

  async execute(): Promise<void> {
    const now = this.deps.clock.now();
    const at = now.toISOString();
    await this.recoverLost(at, await this.marks());
    for (const loaded of await this.deps.runs.inState('waiting')) await this.deps.resume.ifAnswered(loaded.run.id);
    for (const loaded of await this.deps.runs.followUpsDue()) await this.deps.followUp.after(loaded.run.id);
    const handOver = (await this.deps.runs.inState('queued')).filter(
      ({ run, record }) =>
        run.dueAt(at) && (run.nextAttemptAt !== null || Date.parse(record.updatedAt) + this.deps.settings.requeueAfterMs <= now.getTime()),
    );
    if (handOver.length) await this.deps.dispatcher.dispatch(handOver.map((loaded) => loaded.run.id));
    const webhooksDue = (await this.deps.webhooks.pending()).filter((loaded) => loaded.webhook.dueAt(at));
    if (webhooksDue.length) await this.deps.webhookDispatcher.dispatch(webhooksDue.map((loaded) => loaded.webhook.id));
  }

  /**
   * Between ticks, every few seconds where the engine keeps liveness marks: the runs of an
   * instance whose mark is gone are taken back now, and when one was, or any instance's mark
   * disappeared since the last look, the due queued runs are handed out again at once (the dead instance may
   * have held them in its own queue; an executor's claim makes a second hand-over harmless).
   */
  async watch(): Promise<void> {
    const marks = await this.marks();
    if (!marks) return;
    const at = this.deps.clock.now().toISOString();
    const orphaned = await this.recoverLost(at, marks);
    const before = this.seen;
    this.seen = marks.keys;
    const gone = before !== null && [...before].some((key) => !marks.keys.has(key));
    if (!gone && !orphaned) return;
    const due = (await this.deps.runs.inState('queued')).filter(({ run }) => run.dueAt(at));
    if (due.length) await this.deps.dispatcher.dispatch(due.map((loaded) => loaded.run.id));
  }

  /** The marks held now, when this instance holds its own (one that lost its own cannot judge others). */
  private async marks(): Promise<LiveMarks | null> {
    if (!this.deps.liveness.holding) return null;
    try {
      return await this.deps.liveness.alive();
    } catch (error) {
      this.deps.logger.warn('liveness marks could not be read; leases decide', {
        cause: error instanceof Error ? error.message : String(error),
      });
      return null;
    }
  }

  /**
   * Takes back the running runs whose executor died; true when one's liveness mark was gone. A dead
   * instance may have held a whole slot's runs: they are taken back several at a time and each
   * batch is handed out in one hand-over (one job insert with pg-boss, not one per run), so the
   * last of them is not left waiting behind the others' writes.
   */
  private async recoverLost(at: string, marks: LiveMarks | null): Promise<boolean> {
    let markGone = false;
    const lost = (await this.deps.runs.inState('running')).filter((loaded) => {
      const holder = loaded.run.watchedHolder;
      const gone = holder !== null && marks !== null && !marks.isAlive(holder);
      markGone ||= gone;
      return gone || loaded.run.leaseExpiredAt(at);
    });
    for (let i = 0; i < lost.length; i += RECOVER_AT_ONCE) {
      const settled = await Promise.allSettled(lost.slice(i, i + RECOVER_AT_ONCE).map((loaded) => this.takeBack(loaded, at)));
      // The ones put back are handed out even when another's write failed (which then fails the sweep, as before).
      const again = settled.flatMap((taken) => (taken.status === 'fulfilled' && taken.value !== null ? [taken.value] : []));
      if (again.length) await this.deps.dispatcher.dispatch(again);
      const failed = settled.find((taken) => taken.status === 'rejected');
      if (failed) throw failed.reason;
    }
    return markGone;
  }

  /** Ends a lost run's attempt; answers its id when it is to be handed out again, else null (ended, or another took it back). */
  private async takeBack(loaded: LoadedRun, at: string): Promise<string | null> {
    const after: Run = loaded.run.stopRequested ? loaded.run.cancel(at) : loaded.run.interrupt(at);
    if (!(await this.deps.runs.swap(loaded, after))) return null;
    const retrying = after.state === 'queued';
    this.deps.logger.warn(retrying ? 'a run lost its executor and is tried again' : 'a run lost its executor and was ended', {
      runId: after.id,
      holder: loaded.run.lease?.holder,
    });
    const dropped = retrying ? 0 : await this.deps.parked.drop(after.id);
    await this.deps.audit.record({
      subject: after.owner.subject,
      action: 'run.interrupted',
      outcome: after.state,
      details: {
        runId: after.id,
        automationId: after.automationId,
        attempt: after.attempts.length,
        ...(retrying ? { retrying: true } : { droppedApprovals: dropped }),
      },
    });
    if (retrying) return after.id;
    await this.deps.followUp.after(after.id);
    return null;
  }
}
