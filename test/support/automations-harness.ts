import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { RunDispatcher, WebhookDispatcher } from '../../ports/scheduler.js';
import type { Store } from '../../ports/store.js';
import type { Model } from '../../ports/model.js';
import type { ManualClock } from './manual-clock.js';
import type { InstanceLiveness } from '../../ports/liveness.js';
import { NoInstanceLiveness } from '../../adapters/store/no-instance-liveness.js';
import type { WebhookVerifier } from '../../ports/webhook-verifier.js';
import type { StoredGrant } from '../../domain/guard/grant.js';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { Principal } from '../../domain/principal.js';
import type { ApprovalHook } from '../../application/guard/approval-hooks.js';
import { AuditTrail } from '../../application/audit/audit-trail.js';
import { GrantBook } from '../../application/guard/grant-book.js';
import { ThreadBook } from '../../application/threads/thread-book.js';
import { ThreadText } from '../../application/threads/thread-text.js';
import { AgentTurn } from '../../application/threads/agent-turn.js';
import { AutomationRules } from '../../application/automations/automation-rules.js';
import { ArmingAsks } from '../../application/automations/arming-asks.js';
import { ArmingHook } from '../../application/automations/arming-hook.js';
import { AutomationGrants } from '../../application/automations/automation-grants.js';
import { DeleteAutomation } from '../../application/automations/delete-automation.js';
import { CreateAutomation } from '../../application/automations/create-automation.js';
import { ArmAutomation } from '../../application/automations/arm-automation.js';
import { DisarmAutomation } from '../../application/automations/disarm-automation.js';
import { ResumeHook } from '../../application/runs/resume-hook.js';
import { ExecuteRun } from '../../application/runs/execute-run.js';
import { StopRun } from '../../application/runs/stop-run.js';
import { GetRun } from '../../application/runs/get-run.js';
import { ListRuns } from '../../application/runs/list-runs.js';
import { RerunRun } from '../../application/runs/rerun-run.js';
import { RunAutomationNow } from '../../application/runs/run-automation-now.js';
import { DryRunAutomation } from '../../application/runs/dry-run-automation.js';
import { DeliverCompletionWebhook } from '../../application/runs/deliver-completion-webhook.js';
import { ChangeAutomation } from '../../application/automations/change-automation.js';
import { NotifyTargets } from '../../application/automations/notify-targets.js';
import { StandardWebhooksSender } from '../../adapters/webhooks/standard-webhooks-sender.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import { AesGcmSecretBox } from '../../adapters/runtime/aes-gcm-secret-box.js';
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
import { runMachinery } from './run-machinery.js';
import type { Limits } from '../../domain/usage/budget.js';
import { usageMeterOn } from './usage-meter.js';
import { NoUsageMeter } from '../../application/usage/no-usage-meter.js';
import type { UsageMeter } from '../../application/usage/usage-meter.js';
import { LeasedTurnSlots, type TurnSlots } from '../../application/usage/turn-slots.js';
import { NoTurnSlots } from '../../application/usage/no-turn-slots.js';
import { TurnsInFlightBook } from '../../application/usage/turns-in-flight-book.js';
import type { TurnsInFlightPrimitives } from '../../domain/usage/turns-in-flight.js';

/**
 * Hands runs (or webhooks) over by recording them; the test executes them when it chooses
 * (`runQueued`, `deliverQueued`). Work handed over for later is kept apart until `take` is asked
 * at or after its time (by the harness's clock).
 */
export class ManualDispatcher implements RunDispatcher, WebhookDispatcher {
  readonly dispatched: string[] = [];
  readonly later: Array<{ id: string; at: Date }> = [];

  constructor(private readonly now: () => Date = () => new Date()) {}

  async dispatch(ids: ReadonlyArray<string>, at?: Date): Promise<void> {
    if (at && at.getTime() > this.now().getTime()) this.later.push(...ids.map((id) => ({ id, at })));
    else this.dispatched.push(...ids);
  }

  take(): string[] {
    const now = this.now().getTime();
    const due = this.later.filter((entry) => entry.at.getTime() <= now);
    for (const entry of due) this.later.splice(this.later.indexOf(entry), 1);
    return [...this.dispatched.splice(0), ...due.map((entry) => entry.id)];
  }

  /** Does `work` for everything handed over that is due (and anything handed over meanwhile), one at a time. */
  async drain(work: (id: string) => Promise<unknown>): Promise<string[]> {
    const done: string[] = [];
    for (let batch = this.take(); batch.length; batch = this.take()) {
      for (const id of batch) {
        await work(id);
        done.push(id);
      }
    }
    return done;
  }
}

export interface AutomationsHarnessOptions {
  tools: ToolDefinition[];
  /** Default: the scripted model (`/call <tool> <json>` calls a tool). */
  model?: LanguageModelV4;
  /** The Model port itself (a ladder rung against a local server), instead of `model`. */
  agentModel?: Model;
  /** Default: a ManualClock at 2026-06-01T12:00Z (instances of one test share one). */
  clock?: ManualClock;
  /** Share one store between harnesses to play several instances. */
  store?: Store;
  sources?: Record<string, WebhookVerifier>;
  holder?: string;
  leaseMs?: number;
  stopWaitMs?: number;
  tickSecret?: string;
  /** The waits before each completion-webhook retry (default 5 s, then 30 s). */
  webhookRetryDelaysMs?: number[];
  /** The deployment secret completion-webhook secrets are sealed with (instances of one deployment share it). */
  secret?: string;
  /** The owners' budgets (`limits`); absent, nothing is metered. */
  limits?: Limits;
  /** The bound on each owner's turns in flight (dry runs count); absent, none. */
  maxTurnsInFlight?: number;
  /** This instance's liveness mark (a fake in tests); absent, none: leases alone tell a crash. */
  liveness?: InstanceLiveness;
}

/** Automations, runs, the tick and webhook intake over the real guard and agent loop, in memory. */
export function automationsHarness(options: AutomationsHarnessOptions) {
  const hooks: ApprovalHook[] = [];
  const guard = guardHarness({
    tools: options.tools,
    ...(options.store ? { store: options.store } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    hooks,
  });
  const { store, clock, logger } = guard;
  const ids = new SequentialIds();
  const tools = new StaticToolRegistry(options.tools);
  const grants = new GrantBook(store.records<StoredGrant>('grants'));
  const calendar = new CronerCalendar();
  const sources = new StaticWebhookSources(options.sources ?? {});
  const trail = new AuditTrail({ sink: guard.auditLog, ids, clock, logger });
  const dispatcher = new ManualDispatcher(() => clock.now());
  const webhookDispatcher = new ManualDispatcher(() => clock.now());
  const { automations, runs, approvals, webhooks, admission, followUp, parked, resume, sweep, starts } = runMachinery({
    store,
    clock,
    ids,
    audit: trail,
    logger,
    dispatcher,
    webhookDispatcher,
  });
  // Receivers in tests listen on this machine: the test composition lets the egress guard reach loopback.
  const sender = new StandardWebhooksSender(new GuardedEgress({ allow: ['loopback'] }), 5_000);
  const secrets = new AesGcmSecretBox([options.secret ?? 'a-test-deployment-secret-0123456789abcdef']);
  const deliver = new DeliverCompletionWebhook({
    webhooks,
    sender,
    secrets,
    dispatcher: webhookDispatcher,
    clock,
    logger,
    settings: { holder: options.holder ?? 'instance-a', leaseMs: 30_000, retryDelaysMs: options.webhookRetryDelaysMs ?? [5_000, 30_000] },
  });
  const notifyTargets = new NotifyTargets(sender, secrets);
  const meter: UsageMeter = options.limits ? usageMeterOn(store, clock, options.limits) : new NoUsageMeter();
  const slots: TurnSlots =
    options.maxTurnsInFlight === undefined
      ? new NoTurnSlots()
      : new LeasedTurnSlots({
          book: new TurnsInFlightBook(store.records<TurnsInFlightPrimitives>('turns-in-flight')),
          keysOf: (payer) => [payer.subject],
          clock,
          logger,
          settings: { max: options.maxTurnsInFlight, leaseMs: 15_000 },
        });
  const metered = { meter, slots };
  const asks = new ArmingAsks({ approvals, grants, tools, ids, clock, audit: trail, approvalTtlMs: 60 * 60 * 1000 });
  const automationGrants = new AutomationGrants(grants, clock, trail);
  hooks.push(new ArmingHook({ automations, asks, grants: automationGrants, clock, audit: trail }), new ResumeHook(resume));
  const agent = new AgentTurn({
    model: options.agentModel ?? new AiSdkModel((options.model ?? new ScriptedLanguageModel()) as never, 'custom', 'test'),
    tools,
    guard: guard.guard,
    executeApproved: guard.executeApproved,
    approvals,
    threads: new ThreadBook(
      store.records<ThreadPrimitives>('threads'),
      store.records<UiMessage>('thread-messages'),
      new ThreadText(store.textIndex!('threads')),
    ),
    settings: { toolOutputCap: 32_000, maxSteps: 8 },
    ids,
    logger,
    clock,
    meter,
  });
  const executor = new ExecuteRun({
    runs,
    automations,
    agent,
    parked,
    resume,
    admission,
    followUp,
    dispatcher,
    ids,
    clock,
    audit: trail,
    logger,
    settings: {
      holder: options.holder ?? 'instance-a',
      leaseMs: options.leaseMs ?? 60_000,
    },
    ...metered,
    liveness: options.liveness ?? new NoInstanceLiveness(),
  });
  const getRun = new GetRun(runs, webhooks);
  const tick = new Tick({ automations, calendar, starts, sweep, clock, logger });
  const rules = new AutomationRules(calendar, tools, () => sources.names());
  return {
    ...guard,
    ids,
    meter,
    approvalBook: approvals,
    automations,
    runs,
    calendar,
    dispatcher,
    webhookDispatcher,
    webhookBook: webhooks,
    admission,
    executor,
    deliver,
    sweep,
    tick,
    authorizedTick: new AuthorizedTick(tick, options.tickSecret ?? null),
    create: new CreateAutomation({ automations, rules, notifyTargets, calendar, ids, clock }),
    change: new ChangeAutomation({ automations, rules, notifyTargets, calendar, clock }),
    grantBook: grants,
    arm: new ArmAutomation({ automations, asks, grants: automationGrants, calendar, clock, audit: trail }),
    disarm: new DisarmAutomation({ automations, asks, grants: automationGrants, calendar, clock }),
    remove: new DeleteAutomation(automations, asks, automationGrants),
    stop: new StopRun({ runs, parked, followUp, clock, audit: trail, settings: { waitMs: options.stopWaitMs ?? 2_000, pollMs: 10 } }),
    getRun,
    listRuns: new ListRuns(runs),
    rerun: new RerunRun({ runs, automations, dispatcher, ids, clock, audit: trail, meter }),
    runNow: new RunAutomationNow({ runs, automations, dispatcher, ids, clock, audit: trail, meter }),
    dryRun: new DryRunAutomation({
      automations,
      runs,
      execute: (runId) => executor.execute(runId),
      read: getRun,
      ids,
      clock,
      audit: trail,
      ...metered,
    }),
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
    runQueued: (): Promise<string[]> => dispatcher.drain((id) => executor.execute(id)),
    /** Makes every completion-webhook attempt handed over so far (and any handed over meanwhile) that is due. */
    deliverQueued: (): Promise<string[]> => webhookDispatcher.drain((id) => deliver.execute(id)),
    async automation(input: {
      name?: string;
      cron?: string;
      timezone?: string;
      source?: string;
      prompt: string;
      tools?: string[];
      owner?: Principal;
      retry?: { max: number; backoffSeconds: number };
      concurrency?: { limit: number; whenBusy: 'queue' | 'skip' };
      notify?: { url: string };
    }) {
      const trigger = input.source
        ? { kind: 'webhook' as const, source: input.source }
        : { kind: 'schedule' as const, cron: input.cron ?? '* * * * *', ...(input.timezone ? { timezone: input.timezone } : {}) };
      return this.create.execute({
        principal: input.owner ?? ada,
        name: input.name ?? 'test automation',
        trigger,
        task: { prompt: input.prompt, ...(input.tools ? { tools: input.tools } : {}) },
        ...(input.retry ? { retry: input.retry } : {}),
        ...(input.concurrency ? { concurrency: input.concurrency } : {}),
        ...(input.notify ? { notify: input.notify } : {}),
      });
    },
    /** Arms Ada's automation and approves every standing-grant ask, so its runs act while nobody is there. */
    async armApproved(automationId: string): Promise<void> {
      const { asks } = await this.arm.execute({ principal: ada, automationId });
      for (const ask of asks) await this.decide.execute({ principal: ada, approvalId: ask.approvalId, approve: true });
    },
  };
}
