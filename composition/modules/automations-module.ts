import type { ContainerModule } from 'inversify';
import { get, porterModule, recordsOf, TOKENS, type Resolver } from '../tokens.js';
import { AUTOMATION_TOKENS } from './automations-tokens.js';
import { COMPLETION_WEBHOOK_TOKENS } from './completion-webhooks-tokens.js';
import { DELETION_TOKENS } from './deletions-tokens.js';
import { GUARD_TOKENS } from './guard-tokens.js';
import { RUN_TOKENS } from './runs-tokens.js';
import { SCHEDULER_TOKENS } from './scheduler-tokens.js';
import { TICK_TOKENS } from './tick-tokens.js';
import { WEBHOOK_TOKENS } from './webhooks-tokens.js';
import type { AutomationPrimitives } from '../../domain/automations/automation.js';
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
import { automationTools } from '../../application/automations/automation-tools.js';
import { NotifyTargets } from '../../application/automations/notify-targets.js';
import { automationRoutes } from '../../adapters/http/routes/automation-routes.js';
import { runExecutionModule, runRecordsModule, runUseCasesModule, runWatchModule } from './runs-module.js';
import { completionWebhooksModule } from './completion-webhooks-module.js';
import { tickModule } from './tick-module.js';

const asksOf = (ctx: Resolver) =>
  new ArmingAsks({
    approvals: get(ctx, GUARD_TOKENS.ApprovalBook),
    grants: get(ctx, GUARD_TOKENS.GrantBook),
    tools: get(ctx, GUARD_TOKENS.ToolRegistry),
    ids: get(ctx, TOKENS.Ids),
    clock: get(ctx, TOKENS.Clock),
    audit: get(ctx, TOKENS.AuditTrail),
    approvalTtlMs: get(ctx, TOKENS.Config).approvalTtlSeconds * 1000,
  });

const automationGrantsOf = (ctx: Resolver) =>
  new AutomationGrants(get(ctx, GUARD_TOKENS.GrantBook), get(ctx, TOKENS.Clock), get(ctx, TOKENS.AuditTrail));

/** Automations themselves: their records, arming (standing-grant asks and the hook that answers them), their use cases and tools. */
export const automationsModule = porterModule((bind) => {
  bind.singleton(
    AUTOMATION_TOKENS.AutomationBook,
    (ctx) =>
      new AutomationBook(
        recordsOf<AutomationPrimitives>(ctx, 'automations'),
        get(ctx, SCHEDULER_TOKENS.ScheduleWakeUps) ?? undefined,
        get(ctx, DELETION_TOKENS.PendingDeletions),
      ),
  );
  bind(TOKENS.ToolDependents).toDynamicValue((ctx) => new AutomationToolDependents(recordsOf<AutomationPrimitives>(ctx, 'automations')));
  bind.singleton(AUTOMATION_TOKENS.AutomationUseCases, (ctx) => {
    const book = get(ctx, AUTOMATION_TOKENS.AutomationBook);
    const calendar = get(ctx, TICK_TOKENS.CronCalendar);
    const clock = get(ctx, TOKENS.Clock);
    const rules = new AutomationRules(calendar, get(ctx, GUARD_TOKENS.ToolRegistry), () => get(ctx, WEBHOOK_TOKENS.WebhookSources).names());
    const asks = asksOf(ctx);
    const grants = automationGrantsOf(ctx);
    const notifyTargets = new NotifyTargets(
      get(ctx, COMPLETION_WEBHOOK_TOKENS.WebhookSender),
      get(ctx, COMPLETION_WEBHOOK_TOKENS.SecretBox),
    );
    return {
      createAutomation: new CreateAutomation({ automations: book, rules, notifyTargets, calendar, ids: get(ctx, TOKENS.Ids), clock }),
      listAutomations: new ListAutomations(book, calendar, clock, get(ctx, DELETION_TOKENS.PendingDeletions)),
      getAutomation: new GetAutomation(book, calendar, clock),
      changeAutomation: new ChangeAutomation({ automations: book, rules, notifyTargets, calendar, clock }),
      deleteAutomation: new DeleteAutomation(book, asks, grants),
      armAutomation: new ArmAutomation({ automations: book, asks, grants, calendar, clock, audit: get(ctx, TOKENS.AuditTrail) }),
      disarmAutomation: new DisarmAutomation({ automations: book, asks, grants, calendar, clock }),
    };
  });
  // Resolved at call time: the use cases reach the tool registry these tools are part of.
  bind.singleton(TOKENS.PorterTools, (ctx) =>
    automationTools({ automations: () => get(ctx, AUTOMATION_TOKENS.AutomationUseCases), runs: () => get(ctx, RUN_TOKENS.RunUseCases) }),
  );
  bind(TOKENS.ApprovalHooks).toDynamicValue(
    (ctx) =>
      new ArmingHook({
        automations: get(ctx, AUTOMATION_TOKENS.AutomationBook),
        asks: asksOf(ctx),
        grants: automationGrantsOf(ctx),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
      }),
  );
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => automationRoutes(get(ctx, AUTOMATION_TOKENS.AutomationUseCases)));
});

/**
 * Automations and their runs, each reason its own module: the automations (above), runs' records
 * and follow-up, their execution and crash sweep, the liveness watch, people's run use cases,
 * completion webhooks and the tick. Loaded only when `automations` is not false, so their routes
 * answer 404 otherwise. What drives ticks and where runs execute is the scheduler module's choice
 * (SCHEDULER_TOKENS.RunDispatcher, TOKENS.Background); the order keeps hooks and routes in their old order.
 */
export const automationsModules: ReadonlyArray<ContainerModule> = [
  automationsModule,
  runRecordsModule,
  completionWebhooksModule,
  runExecutionModule,
  runWatchModule,
  runUseCasesModule,
  tickModule,
];
