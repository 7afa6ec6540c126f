import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { RunDispatcher, WebhookDispatcher } from '../../ports/scheduler.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { CompletionWebhookBook } from './completion-webhook-book.js';
import type { ParkedApprovals } from './parked-approvals.js';
import type { ResumeRun } from './resume-run.js';
import type { RunBook } from './run-book.js';
import type { RunFollowUp } from './run-follow-up.js';

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
}

/**
 * Housekeeping every tick runs first. A running run whose lease lapsed lost its executor (the
 * instance crashed): it ends — cancelled if a stop was asked, else failed `interrupted` — and its
 * parked approvals are dropped; it is never left running forever, nor silently re-run. A waiting
 * run whose approvals all ended (answered or expired) goes on. A queued run nobody took, or whose
 * retry is due, is handed out again; executors claim before running, so a double hand-over runs it
 * once. A run that ended without what follows its end (slot, next run, completion webhook) gets it
 * now, and completion webhooks due for another attempt are handed to a sender: after a restart,
 * the tick is what carries retries on.
 */
export class SweepRuns {
  private readonly runs: RunBook;
  private readonly parked: ParkedApprovals;
  private readonly resume: ResumeRun;
  private readonly dispatcher: RunDispatcher;
  private readonly followUp: RunFollowUp;
  private readonly webhooks: CompletionWebhookBook;
  private readonly webhookDispatcher: WebhookDispatcher;
  private readonly clock: Clock;
  private readonly audit: AuditTrail;
  private readonly logger: Logger;
  private readonly settings: SweepSettings;

  constructor(deps: SweepRunsDeps) {
    this.runs = deps.runs;
    this.parked = deps.parked;
    this.resume = deps.resume;
    this.dispatcher = deps.dispatcher;
    this.followUp = deps.followUp;
    this.webhooks = deps.webhooks;
    this.webhookDispatcher = deps.webhookDispatcher;
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
      await this.followUp.after(ended.id);
    }
    for (const loaded of await this.runs.inState('waiting')) await this.resume.ifAnswered(loaded.run.id);
    for (const loaded of await this.runs.followUpsDue()) await this.followUp.after(loaded.run.id);
    const handOver = (await this.runs.inState('queued')).filter(
      ({ run, record }) =>
        run.dueAt(at) && (run.nextAttemptAt !== null || Date.parse(record.updatedAt) + this.settings.requeueAfterMs <= now.getTime()),
    );
    if (handOver.length) await this.dispatcher.dispatch(handOver.map((loaded) => loaded.run.id));
    const webhooksDue = (await this.webhooks.pending()).filter((loaded) => loaded.webhook.dueAt(at));
    if (webhooksDue.length) await this.webhookDispatcher.dispatch(webhooksDue.map((loaded) => loaded.webhook.id));
  }
}
