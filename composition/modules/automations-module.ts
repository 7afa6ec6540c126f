import { ContainerModule } from 'inversify';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { Store } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { CronCalendar, RunDispatcher, SchedulerWork } from '../../ports/scheduler.js';
import type { AutomationUseCases } from '../../ports/use-cases/automations.js';
import type { RunUseCases, TickUseCases } from '../../ports/use-cases/runs.js';
import type { WebhookSources } from '../../ports/webhook-verifier.js';
import type { AutomationPrimitives } from '../../domain/automations/automation.js';
import type { RunPrimitives } from '../../domain/runs/run.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { ApprovalBook } from '../../application/guard/approval-book.js';
import type { AgentTurn } from '../../application/threads/agent-turn.js';
import { AutomationToolDependents } from '../../application/automations/automation-tool-dependents.js';
import type { ToolDependents } from '../../application/development/tool-dependents.js';
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
import { ExecuteRun } from '../../application/runs/execute-run.js';
import { StopRun } from '../../application/runs/stop-run.js';
import { SweepRuns } from '../../application/runs/sweep-runs.js';
import { GetRun } from '../../application/runs/get-run.js';
import { ListRuns } from '../../application/runs/list-runs.js';
import { Tick } from '../../application/scheduler/tick.js';
import { AuthorizedTick } from '../../application/scheduler/authorized-tick.js';
import { CronerCalendar } from '../../adapters/scheduler/croner-calendar.js';
import { automationRoutes } from '../../adapters/http/routes/automation-routes.js';
import { runRoutes } from '../../adapters/http/routes/run-routes.js';
import { tickRoutes } from '../../adapters/http/routes/tick-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';

/** How long a run's lease lasts; an executor silent for this long is taken for crashed. */
export const RUN_LEASE_MS = 60_000;
/** A queued run nobody took for this long is handed out again. */
export const RUN_REQUEUE_AFTER_MS = 5 * 60_000;
/** How long `POST /runs/:id/stop` waits for the executor to finish its step. */
export const STOP_WAIT_MS = 15_000;

/**
 * Automations and their runs: the records, arming (standing-grant asks and the hook that answers
 * them), run execution through the agent loop, stop, the crash sweep, and the tick. Loaded only
 * when `automations` is not false, so their routes answer 404 otherwise. What drives ticks and
 * where runs execute is the scheduler module's choice (TOKENS.RunDispatcher, TOKENS.Background).
 */
export const automationsModule = new ContainerModule(({ bind }) => {
  bind<CronCalendar>(TOKENS.CronCalendar).toConstantValue(new CronerCalendar());
  bind(TOKENS.AutomationBook)
    .toDynamicValue((ctx) => new AutomationBook(ctx.get<Store>(TOKENS.Store).records<AutomationPrimitives>('automations')))
    .inSingletonScope();
  bind<ToolDependents>(TOKENS.ToolDependents).toDynamicValue(
    (ctx) => new AutomationToolDependents(ctx.get<Store>(TOKENS.Store).records<AutomationPrimitives>('automations')),
  );
  bind(TOKENS.RunBook)
    .toDynamicValue((ctx) => {
      const store = ctx.get<Store>(TOKENS.Store);
      return new RunBook(store.records<RunPrimitives>('runs'), store.records<UiMessage>('run-messages'));
    })
    .inSingletonScope();

  const parkedOf = (ctx: { get<T>(token: symbol): T }) =>
    new ParkedApprovals(ctx.get<ApprovalBook>(TOKENS.ApprovalBook), ctx.get(TOKENS.Clock));
  const resumeOf = (ctx: { get<T>(token: symbol): T }) =>
    new ResumeRun(ctx.get(TOKENS.RunBook), parkedOf(ctx), ctx.get<RunDispatcher>(TOKENS.RunDispatcher));
  const asksOf = (ctx: { get<T>(token: symbol): T }) =>
    new ArmingAsks(
      ctx.get(TOKENS.ApprovalBook),
      ctx.get(TOKENS.GrantBook),
      ctx.get(TOKENS.ToolRegistry),
      ctx.get(TOKENS.Ids),
      ctx.get(TOKENS.Clock),
      ctx.get(TOKENS.AuditTrail),
      ctx.get<PorterConfig>(TOKENS.Config).approvalTtlSeconds * 1000,
    );

  const automationGrantsOf = (ctx: { get<T>(token: symbol): T }) =>
    new AutomationGrants(ctx.get(TOKENS.GrantBook), ctx.get(TOKENS.Clock), ctx.get(TOKENS.AuditTrail));

  bind(TOKENS.StartRuns)
    .toDynamicValue(
      (ctx) => new StartRuns(ctx.get(TOKENS.RunBook), ctx.get(TOKENS.RunDispatcher), ctx.get(TOKENS.Ids), ctx.get(TOKENS.Clock)),
    )
    .inSingletonScope();
  bind(TOKENS.ExecuteRun)
    .toDynamicValue((ctx) => {
      const agent = ctx.get<AgentTurn>(TOKENS.AgentTurn);
      return new ExecuteRun(
        ctx.get(TOKENS.RunBook),
        ctx.get(TOKENS.AutomationBook),
        agent,
        parkedOf(ctx),
        resumeOf(ctx),
        ctx.get(TOKENS.Ids),
        ctx.get(TOKENS.Clock),
        ctx.get(TOKENS.AuditTrail),
        ctx.get(TOKENS.Logger),
        {
          holder: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
          leaseMs: RUN_LEASE_MS,
        },
      );
    })
    .inSingletonScope();
  bind(Tick)
    .toDynamicValue((ctx) => {
      const sweep = new SweepRuns(
        ctx.get(TOKENS.RunBook),
        parkedOf(ctx),
        resumeOf(ctx),
        ctx.get(TOKENS.RunDispatcher),
        ctx.get(TOKENS.Clock),
        ctx.get(TOKENS.AuditTrail),
        ctx.get(TOKENS.Logger),
        { requeueAfterMs: RUN_REQUEUE_AFTER_MS },
      );
      return new Tick(
        ctx.get(TOKENS.AutomationBook),
        ctx.get(TOKENS.CronCalendar),
        ctx.get(TOKENS.StartRuns),
        sweep,
        ctx.get(TOKENS.Clock),
        ctx.get(TOKENS.Logger),
      );
    })
    .inSingletonScope();
  bind<SchedulerWork>(TOKENS.SchedulerWork)
    .toDynamicValue((ctx) => ({
      tick: () => ctx.get(Tick).execute(),
      executeRun: (runId: string) => ctx.get<ExecuteRun>(TOKENS.ExecuteRun).execute(runId),
    }))
    .inSingletonScope();

  bind<AutomationUseCases>(TOKENS.AutomationUseCases)
    .toDynamicValue((ctx) => {
      const book = ctx.get<AutomationBook>(TOKENS.AutomationBook);
      const calendar = ctx.get<CronCalendar>(TOKENS.CronCalendar);
      const clock = ctx.get<Clock>(TOKENS.Clock);
      const rules = new AutomationRules(calendar, ctx.get(TOKENS.ToolRegistry), () =>
        ctx.get<WebhookSources>(TOKENS.WebhookSources).names(),
      );
      const asks = asksOf(ctx);
      const grants = automationGrantsOf(ctx);
      return {
        createAutomation: new CreateAutomation(book, rules, calendar, ctx.get(TOKENS.Ids), clock),
        listAutomations: new ListAutomations(book, calendar, clock),
        getAutomation: new GetAutomation(book, calendar, clock),
        changeAutomation: new ChangeAutomation(book, rules, calendar, clock),
        deleteAutomation: new DeleteAutomation(book, asks, grants),
        armAutomation: new ArmAutomation(book, asks, grants, calendar, clock, ctx.get(TOKENS.AuditTrail)),
        disarmAutomation: new DisarmAutomation(book, asks, grants, calendar, clock),
      };
    })
    .inSingletonScope();
  bind<RunUseCases>(TOKENS.RunUseCases)
    .toDynamicValue((ctx) => ({
      listRuns: new ListRuns(ctx.get(TOKENS.RunBook)),
      getRun: new GetRun(ctx.get(TOKENS.RunBook)),
      stopRun: new StopRun(ctx.get(TOKENS.RunBook), parkedOf(ctx), ctx.get(TOKENS.Clock), ctx.get(TOKENS.AuditTrail), {
        waitMs: STOP_WAIT_MS,
        pollMs: 100,
      }),
    }))
    .inSingletonScope();
  bind<TickUseCases>(TOKENS.TickUseCases)
    .toDynamicValue((ctx) => ({ tick: new AuthorizedTick(ctx.get(Tick), ctx.get<PorterConfig>(TOKENS.Config).tickSecret ?? null) }))
    .inSingletonScope();

  bind(TOKENS.ApprovalHooks).toDynamicValue(
    (ctx) =>
      new ArmingHook(
        ctx.get(TOKENS.AutomationBook),
        asksOf(ctx),
        automationGrantsOf(ctx),
        ctx.get(TOKENS.Clock),
        ctx.get(TOKENS.AuditTrail),
      ),
  );
  bind(TOKENS.ApprovalHooks).toDynamicValue((ctx) => new ResumeHook(resumeOf(ctx)));
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => automationRoutes(ctx.get(TOKENS.AutomationUseCases)));
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => runRoutes(ctx.get(TOKENS.RunUseCases)));
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => tickRoutes(ctx.get(TOKENS.TickUseCases)));
});
