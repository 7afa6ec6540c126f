import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { RunDispatcher, WebhookDispatcher } from '../../ports/scheduler.js';
import type { Store } from '../../ports/store.js';
import type { AutomationPrimitives } from '../../domain/automations/automation.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { CompletionWebhookPrimitives } from '../../domain/runs/completion-webhook.js';
import type { StoredRunPrimitives } from '../../domain/runs/run.js';
import type { RunSlotsPrimitives } from '../../domain/runs/run-slots.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { AuditTrail } from '../../application/audit/audit-trail.js';
import { AutomationBook } from '../../application/automations/automation-book.js';
import { ApprovalBook } from '../../application/guard/approval-book.js';
import { CompletionWebhookBook } from '../../application/runs/completion-webhook-book.js';
import { ParkedApprovals } from '../../application/runs/parked-approvals.js';
import { RecordCompletionWebhook } from '../../application/runs/record-completion-webhook.js';
import { ResumeRun } from '../../application/runs/resume-run.js';
import { RunAdmission } from '../../application/runs/run-admission.js';
import { RunBook } from '../../application/runs/run-book.js';
import { RunFollowUp } from '../../application/runs/run-follow-up.js';
import { RunSlotsBook } from '../../application/runs/run-slots-book.js';
import { StartRuns } from '../../application/runs/start-runs.js';
import { SweepRuns } from '../../application/runs/sweep-runs.js';
import { NoInstanceLiveness } from '../../adapters/store/no-instance-liveness.js';

export interface RunMachineryDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditTrail;
  readonly logger: Logger;
  readonly dispatcher: RunDispatcher;
  readonly webhookDispatcher: WebhookDispatcher;
}

/**
 * What starts, parks, resumes, follows up and sweeps runs over one store, wired as the automations
 * module wires it: shared by the automations harness and the scheduler bench, so both drive the
 * machinery Porter runs.
 */
export function runMachinery(deps: RunMachineryDeps) {
  const { store, clock, ids, logger, dispatcher, webhookDispatcher } = deps;
  const automations = new AutomationBook(store.records<AutomationPrimitives>('automations'));
  const runs = new RunBook(store.records<StoredRunPrimitives>('runs'), store.records<UiMessage>('run-messages'));
  const approvals = new ApprovalBook(store.records<ApprovalPrimitives>('approvals'));
  const webhooks = new CompletionWebhookBook(store.records<CompletionWebhookPrimitives>('run-webhooks'));
  const admission = new RunAdmission(new RunSlotsBook(store.records<RunSlotsPrimitives & { id: string }>('run-slots')), runs);
  const record = new RecordCompletionWebhook({ webhooks, automations, runs, dispatcher: webhookDispatcher, clock });
  const followUp = new RunFollowUp({ runs, admission, webhooks: record, dispatcher, clock, logger });
  const parked = new ParkedApprovals(approvals, clock);
  const resume = new ResumeRun(runs, parked, dispatcher);
  // The sweep takes the ports the machinery was given, and the books and steps made here.
  const sweep = new SweepRuns({
    ...deps,
    runs,
    parked,
    resume,
    followUp,
    webhooks,
    settings: { requeueAfterMs: 5 * 60_000 },
    liveness: new NoInstanceLiveness(),
  });
  const starts = new StartRuns(runs, dispatcher, ids, clock);
  return { automations, runs, approvals, webhooks, admission, followUp, parked, resume, sweep, starts };
}
