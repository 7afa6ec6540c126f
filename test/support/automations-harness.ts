import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { RunDispatcher } from '../../ports/scheduler.js';
import type { Store } from '../../ports/store.js';
import type { WebhookVerifier } from '../../ports/webhook-verifier.js';
import type { AutomationPrimitives } from '../../domain/automations/automation.js';
import type { RunPrimitives } from '../../domain/runs/run.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { StoredGrant } from '../../domain/guard/grant.js';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { Principal } from '../../domain/principal.js';
import type { ApprovalHook } from '../../application/guard/approval-hooks.js';
import { AuditTrail } from '../../application/audit/audit-trail.js';
import { ApprovalBook } from '../../application/guard/approval-book.js';
import { GrantBook } from '../../application/guard/grant-book.js';
import { ThreadBook } from '../../application/threads/thread-book.js';
import { AgentTurn } from '../../application/threads/agent-turn.js';
import { AutomationBook } from '../../application/automations/automation-book.js';
import { AutomationRules } from '../../application/automations/automation-rules.js';
import { ArmingAsks } from '../../application/automations/arming-asks.js';
import { ArmingHook } from '../../application/automations/arming-hook.js';
import { AutomationGrants } from '../../application/automations/automation-grants.js';
import { DeleteAutomation } from '../../application/automations/delete-automation.js';
import { CreateAutomation } from '../../application/automations/create-automation.js';
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
import { WebhookRefusals } from '../../application/webhooks/webhook-refusals.js';
import { ReceiveDelivery, type DeliveryMark } from '../../application/webhooks/receive-delivery.js';
import { AiSdkModel } from '../../adapters/model/ai-sdk-model.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import { CronerCalendar } from '../../adapters/scheduler/croner-calendar.js';
import { StaticWebhookSources } from '../../adapters/webhooks/static-webhook-sources.js';
import { ada, guardHarness } from './guard-harness.js';
import { SequentialIds } from './fakes.js';

/** Hands runs over by recording them; the test executes them when it chooses (`runQueued`). */
export class ManualDispatcher implements RunDispatcher {
  readonly dispatched: string[] = [];

  async dispatch(runIds: ReadonlyArray<string>): Promise<void> {
    this.dispatched.push(...runIds);
  }

  take(): string[] {
    return this.dispatched.splice(0);
  }
}

export interface AutomationsHarnessOptions {
  tools: ToolDefinition[];
  /** Default: the scripted model (`/call <tool> <json>` calls a tool). */
  model?: LanguageModelV3;
  /** Share one store between harnesses to play several instances. */
  store?: Store;
  sources?: Record<string, WebhookVerifier>;
  holder?: string;
  leaseMs?: number;
  stopWaitMs?: number;
  tickSecret?: string;
}

/** Automations, runs, the tick and webhook intake over the real guard and agent loop, in memory. */
export function automationsHarness(options: AutomationsHarnessOptions) {
  const hooks: ApprovalHook[] = [];
  const guard = guardHarness({ tools: options.tools, ...(options.store ? { store: options.store } : {}), hooks });
  const { store, clock, logger } = guard;
  const ids = new SequentialIds();
  const tools = new StaticToolRegistry(options.tools);
  const approvals = new ApprovalBook(store.records<ApprovalPrimitives>('approvals'));
  const grants = new GrantBook(store.records<StoredGrant>('grants'));
  const automations = new AutomationBook(store.records<AutomationPrimitives>('automations'));
  const runs = new RunBook(store.records<RunPrimitives>('runs'), store.records<UiMessage>('run-messages'));
  const calendar = new CronerCalendar();
  const sources = new StaticWebhookSources(options.sources ?? {});
  const trail = new AuditTrail({ sink: guard.auditLog, ids, clock, logger });
  const dispatcher = new ManualDispatcher();
  const parked = new ParkedApprovals(approvals, clock);
  const resume = new ResumeRun(runs, parked, dispatcher);
  const asks = new ArmingAsks({ approvals, grants, tools, ids, clock, audit: trail, approvalTtlMs: 60 * 60 * 1000 });
  const automationGrants = new AutomationGrants(grants, clock, trail);
  hooks.push(new ArmingHook({ automations, asks, grants: automationGrants, clock, audit: trail }), new ResumeHook(resume));
  const agent = new AgentTurn({
    model: new AiSdkModel((options.model ?? new ScriptedLanguageModel()) as never, 'custom', 'test'),
    tools,
    guard: guard.guard,
    executeApproved: guard.executeApproved,
    approvals,
    threads: new ThreadBook(store.records<ThreadPrimitives>('threads'), store.records<UiMessage>('thread-messages')),
    settings: { toolOutputCap: 32_000, maxSteps: 8 },
    ids,
    logger,
    clock,
  });
  const starts = new StartRuns(runs, dispatcher, ids, clock);
  const executor = new ExecuteRun({
    runs,
    automations,
    agent,
    parked,
    resume,
    ids,
    clock,
    audit: trail,
    logger,
    settings: {
      holder: options.holder ?? 'instance-a',
      leaseMs: options.leaseMs ?? 60_000,
    },
  });
  const sweep = new SweepRuns({ runs, parked, resume, dispatcher, clock, audit: trail, logger, settings: { requeueAfterMs: 5 * 60_000 } });
  const tick = new Tick({ automations, calendar, starts, sweep, clock, logger });
  const rules = new AutomationRules(calendar, tools, () => sources.names());
  return {
    ...guard,
    ids,
    approvalBook: approvals,
    automations,
    runs,
    calendar,
    dispatcher,
    executor,
    sweep,
    tick,
    authorizedTick: new AuthorizedTick(tick, options.tickSecret ?? null),
    create: new CreateAutomation({ automations, rules, calendar, ids, clock }),
    grantBook: grants,
    arm: new ArmAutomation({ automations, asks, grants: automationGrants, calendar, clock, audit: trail }),
    disarm: new DisarmAutomation({ automations, asks, grants: automationGrants, calendar, clock }),
    remove: new DeleteAutomation(automations, asks, automationGrants),
    stop: new StopRun({ runs, parked, clock, audit: trail, settings: { waitMs: options.stopWaitMs ?? 2_000, pollMs: 10 } }),
    getRun: new GetRun(runs),
    listRuns: new ListRuns(runs),
    receive: new ReceiveDelivery({
      sources,
      refusals: new WebhookRefusals(trail),
      ledger: store.records<DeliveryMark>('webhook-deliveries'),
      automations,
      starts,
      clock,
      audit: trail,
    }),
    /** Executes every run handed over so far (and any handed over meanwhile), one at a time. */
    async runQueued(): Promise<string[]> {
      const done: string[] = [];
      for (let batch = dispatcher.take(); batch.length; batch = dispatcher.take()) {
        for (const id of batch) {
          await executor.execute(id);
          done.push(id);
        }
      }
      return done;
    },
    async automation(input: {
      name?: string;
      cron?: string;
      timezone?: string;
      source?: string;
      prompt: string;
      tools?: string[];
      owner?: Principal;
    }) {
      const trigger = input.source
        ? { kind: 'webhook' as const, source: input.source }
        : { kind: 'schedule' as const, cron: input.cron ?? '* * * * *', ...(input.timezone ? { timezone: input.timezone } : {}) };
      return this.create.execute({
        principal: input.owner ?? ada,
        name: input.name ?? 'test automation',
        trigger,
        task: { prompt: input.prompt, ...(input.tools ? { tools: input.tools } : {}) },
      });
    },
  };
}
