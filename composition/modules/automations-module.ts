import { randomBytes } from 'node:crypto';
import { get, porterModule, recordsOf, token, TOKENS, type Resolver } from '../tokens.js';
import type { AutomationPrimitives } from '../../domain/automations/automation.js';
import type { StoredRunPrimitives } from '../../domain/runs/run.js';
import type { RunSlotsPrimitives } from '../../domain/runs/run-slots.js';
import type { CompletionWebhookPrimitives } from '../../domain/runs/completion-webhook.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { InstanceLiveness } from '../../ports/liveness.js';
import { AutomationToolDependents } from '../../application/automations/automation-tool-dependents.js';
import { AutomationBook } from '../../application/automations/automation-book.js';
import { AutomationRules } from '../../application/automations/automation-rules.js';
import { ArmingAsks } from '../../application/automations/arming-asks.js';
import { ArmingHook } from '../../application/automations/arming-hook.js';
import { AutomationGrants } from '../../application/automations/automation-grants.js';
import { CreateAutomation } from '../../application/automations/create-automation.js';
import { GetAutomation } from '../../application/automations/get-automation.js';
import { ListAutomations } from '../../application/automations/list-automations.js';
import { ChangeAutomation } from '../../application/automations/change-automation.js';
import { DeleteAutomation } from '../../application/automations/delete-automation.js';
import { ArmAutomation } from '../../application/automations/arm-automation.js';
import { DisarmAutomation } from '../../application/automations/disarm-automation.js';
import { RunBook } from '../../application/runs/run-book.js';
import { ParkedApprovals } from '../../application/runs/parked-approvals.js';
import { ResumeRun } from '../../application/runs/resume-run.js';
import { ResumeHook } from '../../application/runs/resume-hook.js';
import { StartRuns } from '../../application/runs/start-runs.js';
import { TracedExecuteRun } from '../../application/runs/traced-execute-run.js';
import { StopRun } from '../../application/runs/stop-run.js';
import { RunAutomationNow } from '../../application/runs/run-automation-now.js';
import { automationTools } from '../../application/automations/automation-tools.js';
import { SweepRuns } from '../../application/runs/sweep-runs.js';
import { GetRun } from '../../application/runs/get-run.js';
import { ListRuns } from '../../application/runs/list-runs.js';
import { RerunRun } from '../../application/runs/rerun-run.js';
import { DryRunAutomation } from '../../application/runs/dry-run-automation.js';
import { RunSlotsBook } from '../../application/runs/run-slots-book.js';
import { RunAdmission } from '../../application/runs/run-admission.js';
import { RunFollowUp } from '../../application/runs/run-follow-up.js';
import { CompletionWebhookBook } from '../../application/runs/completion-webhook-book.js';
import { RecordCompletionWebhook } from '../../application/runs/record-completion-webhook.js';
import { DeliverCompletionWebhook } from '../../application/runs/deliver-completion-webhook.js';
import { NotifyTargets } from '../../application/automations/notify-targets.js';
import { StandardWebhooksSender } from '../../adapters/webhooks/standard-webhooks-sender.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import { AesGcmSecretBox } from '../../adapters/runtime/aes-gcm-secret-box.js';
import { TracedTick } from '../../application/scheduler/traced-tick.js';
import { AuthorizedTick } from '../../application/scheduler/authorized-tick.js';
import { CronerCalendar } from '../../adapters/scheduler/croner-calendar.js';
import { HOLDER, livenessOf } from './instance-liveness.js';
import { automationRoutes } from '../../adapters/http/routes/automation-routes.js';
import { runRoutes } from '../../adapters/http/routes/run-routes.js';
import { tickRoutes } from '../../adapters/http/routes/tick-routes.js';

/** How long a run's lease lasts; an executor silent for this long is taken for crashed. */
export const RUN_LEASE_MS = 60_000;
/** A queued run nobody took for this long is handed out again. */
export const RUN_REQUEUE_AFTER_MS = 5 * 60_000;
/** How long `POST /runs/:id/stop` waits for the executor to finish its step. */
export const STOP_WAIT_MS = 15_000;
/** How often each instance looks for runs whose instance's liveness mark is gone (PostgreSQL only). */
export const RUN_WATCH_MS = 2_000;

/** This instance's part in runs: its name in leases, and how long leases, requeues and stops take. */
export interface RunSettings {
  readonly holder: string;
  readonly leaseMs: number;
  readonly requeueAfterMs: number;
  readonly stopWaitMs: number;
  readonly stopPollMs: number;
}

/** The runs' own services, which a test may replace (the tests' harness plays several instances on one store). */
export const RUN_TOKENS = {
  RunSettings: token<RunSettings>('RunSettings'),
  /** This instance's liveness mark (PostgreSQL's), or null where leases alone tell a crash. */
  Liveness: token<InstanceLiveness | null>('InstanceLiveness'),
  /** The crash sweep, shared by the tick and the liveness watch. */
  SweepRuns: token<SweepRuns>('SweepRuns'),
};
const SWEEP = RUN_TOKENS.SweepRuns;

/**
 * Automations and their runs: the records, arming (standing-grant asks and the hook that answers
 * them), run execution through the agent loop, stop, the crash sweep, and the tick. Loaded only
 * when `automations` is not false, so their routes answer 404 otherwise. What drives ticks and
 * where runs execute is the scheduler module's choice (TOKENS.RunDispatcher, TOKENS.Background).
 */
export const automationsModule = porterModule((bind) => {
  bind(RUN_TOKENS.RunSettings).toConstantValue({
    holder: HOLDER,
    leaseMs: RUN_LEASE_MS,
    requeueAfterMs: RUN_REQUEUE_AFTER_MS,
    stopWaitMs: STOP_WAIT_MS,
    stopPollMs: 100,
  });
  bind.singleton(RUN_TOKENS.Liveness, (ctx) => livenessOf(ctx));
  bind(TOKENS.CronCalendar).toConstantValue(new CronerCalendar());
  bind.singleton(
    TOKENS.AutomationBook,
    (ctx) =>
      new AutomationBook(
        recordsOf<AutomationPrimitives>(ctx, 'automations'),
        get(ctx, TOKENS.ScheduleWakeUps) ?? undefined,
        get(ctx, TOKENS.PendingDeletions),
      ),
  );
  bind(TOKENS.ToolDependents).toDynamicValue((ctx) => new AutomationToolDependents(recordsOf<AutomationPrimitives>(ctx, 'automations')));
  bind.singleton(
    TOKENS.RunBook,
    (ctx) => new RunBook(recordsOf<StoredRunPrimitives>(ctx, 'runs'), recordsOf<UiMessage>(ctx, 'run-messages')),
  );

  bind.singleton(
    TOKENS.CompletionWebhookBook,
    (ctx) => new CompletionWebhookBook(recordsOf<CompletionWebhookPrimitives>(ctx, 'run-webhooks')),
  );
  bind.singleton(
    TOKENS.RunAdmission,
    (ctx) => new RunAdmission(new RunSlotsBook(recordsOf<RunSlotsPrimitives & { id: string }>(ctx, 'run-slots')), get(ctx, TOKENS.RunBook)),
  );
  // Completion webhooks go through the egress guard; development also lets them reach this machine, so a local receiver works.
  bind.singleton(TOKENS.WebhookSender, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    const egress = config.development ? new GuardedEgress({ allow: ['loopback'] }) : get(ctx, TOKENS.Egress);
    return new StandardWebhooksSender(egress, config.completionWebhooks.timeoutSeconds * 1000);
  });
  bind.singleton(TOKENS.SecretBox, (ctx) => {
    const secret = get(ctx, TOKENS.Config).secret;
    if (secret) return new AesGcmSecretBox(typeof secret === 'string' ? [secret] : secret);
    get(ctx, TOKENS.Logger).warn(
      'no PORTER_SECRET set: completion-webhook secrets are sealed with a per-boot key and stop opening on restart',
    );
    return new AesGcmSecretBox([randomBytes(32).toString('base64url')]);
  });
  bind.singleton(
    TOKENS.RunFollowUp,
    (ctx) =>
      new RunFollowUp({
        runs: get(ctx, TOKENS.RunBook),
        admission: get(ctx, TOKENS.RunAdmission),
        webhooks: new RecordCompletionWebhook({
          webhooks: get(ctx, TOKENS.CompletionWebhookBook),
          automations: get(ctx, TOKENS.AutomationBook),
          runs: get(ctx, TOKENS.RunBook),
          dispatcher: get(ctx, TOKENS.WebhookDispatcher),
          clock: get(ctx, TOKENS.Clock),
        }),
        dispatcher: get(ctx, TOKENS.RunDispatcher),
        clock: get(ctx, TOKENS.Clock),
        logger: get(ctx, TOKENS.Logger),
      }),
  );
  bind.singleton(TOKENS.DeliverCompletionWebhook, (ctx) => {
    const config = get(ctx, TOKENS.Config).completionWebhooks;
    return new DeliverCompletionWebhook({
      webhooks: get(ctx, TOKENS.CompletionWebhookBook),
      sender: get(ctx, TOKENS.WebhookSender),
      secrets: get(ctx, TOKENS.SecretBox),
      dispatcher: get(ctx, TOKENS.WebhookDispatcher),
      clock: get(ctx, TOKENS.Clock),
      logger: get(ctx, TOKENS.Logger),
      settings: {
        holder: get(ctx, RUN_TOKENS.RunSettings).holder,
        // One attempt's timeout, and as long again for the store around it.
        leaseMs: config.timeoutSeconds * 2000 + 5_000,
        retryDelaysMs: config.retryDelaysSeconds.map((seconds) => seconds * 1000),
      },
    });
  });

  const parkedOf = (ctx: Resolver) => new ParkedApprovals(get(ctx, TOKENS.ApprovalBook), get(ctx, TOKENS.Clock));
  const resumeOf = (ctx: Resolver) => new ResumeRun(get(ctx, TOKENS.RunBook), parkedOf(ctx), get(ctx, TOKENS.RunDispatcher));
  const asksOf = (ctx: Resolver) =>
    new ArmingAsks({
      approvals: get(ctx, TOKENS.ApprovalBook),
      grants: get(ctx, TOKENS.GrantBook),
      tools: get(ctx, TOKENS.ToolRegistry),
      ids: get(ctx, TOKENS.Ids),
      clock: get(ctx, TOKENS.Clock),
      audit: get(ctx, TOKENS.AuditTrail),
      approvalTtlMs: get(ctx, TOKENS.Config).approvalTtlSeconds * 1000,
    });

  const automationGrantsOf = (ctx: Resolver) =>
    new AutomationGrants(get(ctx, TOKENS.GrantBook), get(ctx, TOKENS.Clock), get(ctx, TOKENS.AuditTrail));

  bind.singleton(
    TOKENS.StartRuns,
    (ctx) => new StartRuns(get(ctx, TOKENS.RunBook), get(ctx, TOKENS.RunDispatcher), get(ctx, TOKENS.Ids), get(ctx, TOKENS.Clock)),
  );
  bind.singleton(TOKENS.ExecuteRun, (ctx) => {
    const agent = get(ctx, TOKENS.AgentTurn);
    return new TracedExecuteRun(get(ctx, TOKENS.Telemetry), {
      runs: get(ctx, TOKENS.RunBook),
      automations: get(ctx, TOKENS.AutomationBook),
      agent,
      parked: parkedOf(ctx),
      resume: resumeOf(ctx),
      admission: get(ctx, TOKENS.RunAdmission),
      followUp: get(ctx, TOKENS.RunFollowUp),
      dispatcher: get(ctx, TOKENS.RunDispatcher),
      ids: get(ctx, TOKENS.Ids),
      clock: get(ctx, TOKENS.Clock),
      audit: get(ctx, TOKENS.AuditTrail),
      logger: get(ctx, TOKENS.Logger),
      settings: {
        holder: get(ctx, RUN_TOKENS.RunSettings).holder,
        leaseMs: get(ctx, RUN_TOKENS.RunSettings).leaseMs,
      },
      meter: get(ctx, TOKENS.UsageMeter),
      slots: get(ctx, TOKENS.TurnSlots),
      liveness: get(ctx, RUN_TOKENS.Liveness),
    });
  });
  bind.singleton(SWEEP, (ctx) => {
    return new SweepRuns({
      runs: get(ctx, TOKENS.RunBook),
      parked: parkedOf(ctx),
      resume: resumeOf(ctx),
      dispatcher: get(ctx, TOKENS.RunDispatcher),
      followUp: get(ctx, TOKENS.RunFollowUp),
      webhooks: get(ctx, TOKENS.CompletionWebhookBook),
      webhookDispatcher: get(ctx, TOKENS.WebhookDispatcher),
      clock: get(ctx, TOKENS.Clock),
      audit: get(ctx, TOKENS.AuditTrail),
      logger: get(ctx, TOKENS.Logger),
      settings: { requeueAfterMs: get(ctx, RUN_TOKENS.RunSettings).requeueAfterMs },
      liveness: get(ctx, RUN_TOKENS.Liveness),
    });
  });
  bind.singleton(TOKENS.Tick, (ctx) => {
    return new TracedTick(get(ctx, TOKENS.Telemetry), {
      automations: get(ctx, TOKENS.AutomationBook),
      calendar: get(ctx, TOKENS.CronCalendar),
      starts: get(ctx, TOKENS.StartRuns),
      sweep: get(ctx, SWEEP),
      deletions: get(ctx, TOKENS.PurgeDueDeletions),
      clock: get(ctx, TOKENS.Clock),
      logger: get(ctx, TOKENS.Logger),
    });
  });
  // Where the engine keeps liveness marks: this instance holds its own from boot, and every few
  // seconds takes back the runs of an instance whose mark is gone (retried at once, elsewhere).
  bind(TOKENS.Background).toDynamicValue((ctx) => {
    const liveness = get(ctx, RUN_TOKENS.Liveness);
    if (!liveness) return { start: async () => {}, stop: async () => {} };
    const logger = get(ctx, TOKENS.Logger);
    let timer: NodeJS.Timeout | null = null;
    let looking: Promise<void> | null = null;
    return {
      start: async () => {
        await liveness.hold(get(ctx, RUN_TOKENS.RunSettings).holder).catch((error: unknown) =>
          logger.warn('this instance could not take its liveness mark; its runs are judged by their leases', {
            cause: error instanceof Error ? error.message : String(error),
          }),
        );
        timer = setInterval(() => {
          looking ??= get(ctx, SWEEP)
            .watch()
            .catch((error: unknown) => logger.warn('looking for runs of dead instances failed', { cause: String(error) }))
            .finally(() => (looking = null));
        }, RUN_WATCH_MS);
        timer.unref();
      },
      stop: async () => {
        if (timer) clearInterval(timer);
        await looking;
        // The runs in flight are let go before the mark, so nobody takes one this instance still works on.
        get(ctx, TOKENS.ExecuteRun).close();
        await liveness.release();
      },
    };
  });
  bind.singleton(TOKENS.SchedulerWork, (ctx) => ({
    tick: () => get(ctx, TOKENS.Tick).execute(),
    executeRun: (runId: string) => get(ctx, TOKENS.ExecuteRun).execute(runId),
    deliverWebhook: (webhookId: string) => get(ctx, TOKENS.DeliverCompletionWebhook).execute(webhookId),
  }));

  bind.singleton(TOKENS.AutomationUseCases, (ctx) => {
    const book = get(ctx, TOKENS.AutomationBook);
    const calendar = get(ctx, TOKENS.CronCalendar);
    const clock = get(ctx, TOKENS.Clock);
    const rules = new AutomationRules(calendar, get(ctx, TOKENS.ToolRegistry), () => get(ctx, TOKENS.WebhookSources).names());
    const asks = asksOf(ctx);
    const grants = automationGrantsOf(ctx);
    const notifyTargets = new NotifyTargets(get(ctx, TOKENS.WebhookSender), get(ctx, TOKENS.SecretBox));
    return {
      createAutomation: new CreateAutomation({ automations: book, rules, notifyTargets, calendar, ids: get(ctx, TOKENS.Ids), clock }),
      listAutomations: new ListAutomations(book, calendar, clock, get(ctx, TOKENS.PendingDeletions)),
      getAutomation: new GetAutomation(book, calendar, clock),
      changeAutomation: new ChangeAutomation({ automations: book, rules, notifyTargets, calendar, clock }),
      deleteAutomation: new DeleteAutomation(book, asks, grants),
      armAutomation: new ArmAutomation({ automations: book, asks, grants, calendar, clock, audit: get(ctx, TOKENS.AuditTrail) }),
      disarmAutomation: new DisarmAutomation({ automations: book, asks, grants, calendar, clock }),
    };
  });
  bind.singleton(TOKENS.RunUseCases, (ctx) => {
    const getRun = new GetRun(get(ctx, TOKENS.RunBook), get(ctx, TOKENS.CompletionWebhookBook));
    return {
      listRuns: new ListRuns(get(ctx, TOKENS.RunBook)),
      getRun,
      stopRun: new StopRun({
        runs: get(ctx, TOKENS.RunBook),
        parked: parkedOf(ctx),
        followUp: get(ctx, TOKENS.RunFollowUp),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
        settings: {
          waitMs: get(ctx, RUN_TOKENS.RunSettings).stopWaitMs,
          pollMs: get(ctx, RUN_TOKENS.RunSettings).stopPollMs,
        },
      }),
      rerunRun: new RerunRun({
        runs: get(ctx, TOKENS.RunBook),
        automations: get(ctx, TOKENS.AutomationBook),
        dispatcher: get(ctx, TOKENS.RunDispatcher),
        ids: get(ctx, TOKENS.Ids),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
        meter: get(ctx, TOKENS.UsageMeter),
      }),
      dryRunAutomation: new DryRunAutomation({
        automations: get(ctx, TOKENS.AutomationBook),
        runs: get(ctx, TOKENS.RunBook),
        execute: (runId) => get(ctx, TOKENS.ExecuteRun).execute(runId),
        read: getRun,
        ids: get(ctx, TOKENS.Ids),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
        meter: get(ctx, TOKENS.UsageMeter),
        slots: get(ctx, TOKENS.TurnSlots),
      }),
      runAutomationNow: new RunAutomationNow({
        runs: get(ctx, TOKENS.RunBook),
        automations: get(ctx, TOKENS.AutomationBook),
        dispatcher: get(ctx, TOKENS.RunDispatcher),
        ids: get(ctx, TOKENS.Ids),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
        meter: get(ctx, TOKENS.UsageMeter),
      }),
    };
  });
  // Resolved at call time: the use cases reach the tool registry these tools are part of.
  bind.singleton(TOKENS.PorterTools, (ctx) =>
    automationTools({ automations: () => get(ctx, TOKENS.AutomationUseCases), runs: () => get(ctx, TOKENS.RunUseCases) }),
  );
  bind.singleton(TOKENS.TickUseCases, (ctx) => ({
    tick: new AuthorizedTick(get(ctx, TOKENS.Tick), get(ctx, TOKENS.Config).tickSecret ?? null),
  }));

  bind(TOKENS.ApprovalHooks).toDynamicValue(
    (ctx) =>
      new ArmingHook({
        automations: get(ctx, TOKENS.AutomationBook),
        asks: asksOf(ctx),
        grants: automationGrantsOf(ctx),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
      }),
  );
  bind(TOKENS.ApprovalHooks).toDynamicValue((ctx) => new ResumeHook(resumeOf(ctx)));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => automationRoutes(get(ctx, TOKENS.AutomationUseCases)));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => runRoutes(get(ctx, TOKENS.RunUseCases)));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => tickRoutes(get(ctx, TOKENS.TickUseCases)));
});
