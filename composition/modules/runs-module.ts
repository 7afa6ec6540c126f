import { get, porterModule, recordsOf, TOKENS, type Resolver } from '../tokens.js';
import { AUTOMATION_TOKENS } from './automations-tokens.js';
import { COMPLETION_WEBHOOK_TOKENS } from './completion-webhooks-tokens.js';
import { GUARD_TOKENS } from './guard-tokens.js';
import { RUN_TOKENS } from './runs-tokens.js';
import { SCHEDULER_TOKENS } from './scheduler-tokens.js';
import { THREAD_TOKENS } from './threads-tokens.js';
import { USAGE_TOKENS } from './usage-tokens.js';
import type { StoredRunPrimitives } from '../../domain/runs/run.js';
import type { RunSlotsPrimitives } from '../../domain/runs/run-slots.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import { RunBook } from '../../application/runs/run-book.js';
import { ParkedApprovals } from '../../application/runs/parked-approvals.js';
import { ResumeRun } from '../../application/runs/resume-run.js';
import { ResumeHook } from '../../application/runs/resume-hook.js';
import { StartRuns } from '../../application/runs/start-runs.js';
import { TracedExecuteRun } from '../../application/runs/traced-execute-run.js';
import { StopRun } from '../../application/runs/stop-run.js';
import { RunAutomationNow } from '../../application/runs/run-automation-now.js';
import { SweepRuns } from '../../application/runs/sweep-runs.js';
import { GetRun } from '../../application/runs/get-run.js';
import { ListRuns } from '../../application/runs/list-runs.js';
import { RerunRun } from '../../application/runs/rerun-run.js';
import { DryRunAutomation } from '../../application/runs/dry-run-automation.js';
import { RunSlotsBook } from '../../application/runs/run-slots-book.js';
import { RunAdmission } from '../../application/runs/run-admission.js';
import { RunFollowUp } from '../../application/runs/run-follow-up.js';
import { RecordCompletionWebhook } from '../../application/runs/record-completion-webhook.js';
import { engineLivenessOf, holderOf, livenessOf } from './instance-liveness.js';
import { runRoutes } from '../../adapters/http/routes/run-routes.js';

/** How long a run's lease lasts; an executor silent for this long is taken for crashed. */
export const RUN_LEASE_MS = 60_000;
/** A queued run nobody took for this long is handed out again. */
export const RUN_REQUEUE_AFTER_MS = 5 * 60_000;
/** How long `POST /runs/:id/stop` waits for the executor to finish its step. */
export const STOP_WAIT_MS = 15_000;
/**
 * How often each instance looks for runs whose instance's liveness mark is gone (PostgreSQL only).
 * Each second: a killed instance's queued runs go out again within about a second, so a slot it
 * held still starts within 2 s at p95 (`npm run bench -- slot-start`); the look is a read of the
 * lock table and of the runs in flight.
 */
export const RUN_WATCH_MS = 1_000;

const parkedOf = (ctx: Resolver) => new ParkedApprovals(get(ctx, GUARD_TOKENS.ApprovalBook), get(ctx, TOKENS.Clock));
const resumeOf = (ctx: Resolver) => new ResumeRun(get(ctx, RUN_TOKENS.RunBook), parkedOf(ctx), get(ctx, SCHEDULER_TOKENS.RunDispatcher));

/** Runs' records and what a run's end sets off: its slot, the next queued run, its completion webhook. */
export const runRecordsModule = porterModule((bind) => {
  bind.singleton(RUN_TOKENS.RunSettings, (ctx) => ({
    holder: holderOf(ctx),
    leaseMs: RUN_LEASE_MS,
    requeueAfterMs: RUN_REQUEUE_AFTER_MS,
    stopWaitMs: STOP_WAIT_MS,
    stopPollMs: 100,
  }));
  bind.singleton(RUN_TOKENS.Liveness, (ctx) => livenessOf(ctx));
  bind.singleton(
    RUN_TOKENS.RunBook,
    (ctx) => new RunBook(recordsOf<StoredRunPrimitives>(ctx, 'runs'), recordsOf<UiMessage>(ctx, 'run-messages')),
  );
  bind.singleton(
    RUN_TOKENS.RunAdmission,
    (ctx) =>
      new RunAdmission(new RunSlotsBook(recordsOf<RunSlotsPrimitives & { id: string }>(ctx, 'run-slots')), get(ctx, RUN_TOKENS.RunBook)),
  );
  bind.singleton(
    RUN_TOKENS.RunFollowUp,
    (ctx) =>
      new RunFollowUp({
        runs: get(ctx, RUN_TOKENS.RunBook),
        admission: get(ctx, RUN_TOKENS.RunAdmission),
        webhooks: new RecordCompletionWebhook({
          webhooks: get(ctx, COMPLETION_WEBHOOK_TOKENS.CompletionWebhookBook),
          automations: get(ctx, AUTOMATION_TOKENS.AutomationBook),
          runs: get(ctx, RUN_TOKENS.RunBook),
          dispatcher: get(ctx, SCHEDULER_TOKENS.WebhookDispatcher),
          clock: get(ctx, TOKENS.Clock),
        }),
        dispatcher: get(ctx, SCHEDULER_TOKENS.RunDispatcher),
        clock: get(ctx, TOKENS.Clock),
        logger: get(ctx, TOKENS.Logger),
      }),
  );
  bind.singleton(
    RUN_TOKENS.StartRuns,
    (ctx) =>
      new StartRuns(get(ctx, RUN_TOKENS.RunBook), get(ctx, SCHEDULER_TOKENS.RunDispatcher), get(ctx, TOKENS.Ids), get(ctx, TOKENS.Clock)),
  );
  bind(TOKENS.ApprovalHooks).toDynamicValue((ctx) => new ResumeHook(resumeOf(ctx)));
});

/** Carrying a run out through the agent loop, and the crash sweep that takes back runs nobody carries. */
export const runExecutionModule = porterModule((bind) => {
  bind.singleton(RUN_TOKENS.ExecuteRun, (ctx) => {
    const settings = get(ctx, RUN_TOKENS.RunSettings);
    return new TracedExecuteRun(get(ctx, TOKENS.Telemetry), {
      runs: get(ctx, RUN_TOKENS.RunBook),
      automations: get(ctx, AUTOMATION_TOKENS.AutomationBook),
      agent: get(ctx, THREAD_TOKENS.AgentTurn),
      parked: parkedOf(ctx),
      resume: resumeOf(ctx),
      admission: get(ctx, RUN_TOKENS.RunAdmission),
      followUp: get(ctx, RUN_TOKENS.RunFollowUp),
      dispatcher: get(ctx, SCHEDULER_TOKENS.RunDispatcher),
      ids: get(ctx, TOKENS.Ids),
      clock: get(ctx, TOKENS.Clock),
      audit: get(ctx, TOKENS.AuditTrail),
      logger: get(ctx, TOKENS.Logger),
      settings: { holder: settings.holder, leaseMs: settings.leaseMs },
      meter: get(ctx, USAGE_TOKENS.UsageMeter),
      slots: get(ctx, USAGE_TOKENS.TurnSlots),
      liveness: get(ctx, RUN_TOKENS.Liveness),
    });
  });
  bind.singleton(RUN_TOKENS.SweepRuns, (ctx) => {
    return new SweepRuns({
      runs: get(ctx, RUN_TOKENS.RunBook),
      parked: parkedOf(ctx),
      resume: resumeOf(ctx),
      dispatcher: get(ctx, SCHEDULER_TOKENS.RunDispatcher),
      followUp: get(ctx, RUN_TOKENS.RunFollowUp),
      webhooks: get(ctx, COMPLETION_WEBHOOK_TOKENS.CompletionWebhookBook),
      webhookDispatcher: get(ctx, SCHEDULER_TOKENS.WebhookDispatcher),
      clock: get(ctx, TOKENS.Clock),
      audit: get(ctx, TOKENS.AuditTrail),
      logger: get(ctx, TOKENS.Logger),
      settings: { requeueAfterMs: get(ctx, RUN_TOKENS.RunSettings).requeueAfterMs },
      liveness: get(ctx, RUN_TOKENS.Liveness),
    });
  });
});

/** This instance's liveness mark, held from boot, and the watch for runs of instances whose mark is gone. */
export const runWatchModule = porterModule((bind) => {
  // Where the engine keeps liveness marks: this instance holds its own from boot, and every few
  // seconds takes back the runs of an instance whose mark is gone (retried at once, elsewhere).
  bind(TOKENS.Background).toDynamicValue((ctx) => {
    // Only where the engine keeps marks (a test's container never starts background work).
    if (!engineLivenessOf(ctx)) return { start: async () => {}, stop: async () => {} };
    const liveness = get(ctx, RUN_TOKENS.Liveness);
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
          looking ??= get(ctx, RUN_TOKENS.SweepRuns)
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
        await get(ctx, RUN_TOKENS.ExecuteRun).close();
        await liveness.release();
      },
    };
  });
});

/** What people do with runs (`/runs`): list, read, stop, rerun, dry-run and run now. */
export const runUseCasesModule = porterModule((bind) => {
  bind.singleton(RUN_TOKENS.RunUseCases, (ctx) => {
    const runs = get(ctx, RUN_TOKENS.RunBook);
    const automations = get(ctx, AUTOMATION_TOKENS.AutomationBook);
    const dispatcher = get(ctx, SCHEDULER_TOKENS.RunDispatcher);
    const ids = get(ctx, TOKENS.Ids);
    const clock = get(ctx, TOKENS.Clock);
    const audit = get(ctx, TOKENS.AuditTrail);
    const meter = get(ctx, USAGE_TOKENS.UsageMeter);
    const getRun = new GetRun(runs, get(ctx, COMPLETION_WEBHOOK_TOKENS.CompletionWebhookBook));
    const settings = get(ctx, RUN_TOKENS.RunSettings);
    return {
      listRuns: new ListRuns(runs),
      getRun,
      stopRun: new StopRun({
        runs,
        parked: parkedOf(ctx),
        followUp: get(ctx, RUN_TOKENS.RunFollowUp),
        clock,
        audit,
        settings: { waitMs: settings.stopWaitMs, pollMs: settings.stopPollMs },
      }),
      rerunRun: new RerunRun({ runs, automations, dispatcher, ids, clock, audit, meter }),
      dryRunAutomation: new DryRunAutomation({
        automations,
        runs,
        execute: (runId) => get(ctx, RUN_TOKENS.ExecuteRun).execute(runId),
        read: getRun,
        ids,
        clock,
        audit,
        meter,
        slots: get(ctx, USAGE_TOKENS.TurnSlots),
      }),
      runAutomationNow: new RunAutomationNow({ runs, automations, dispatcher, ids, clock, audit, meter }),
    };
  });
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => runRoutes(get(ctx, RUN_TOKENS.RunUseCases)));
});
