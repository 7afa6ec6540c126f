import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { RunDispatcher, WebhookDispatcher } from '../../ports/scheduler.js';
import type { Store } from '../../ports/store.js';
import type { Model } from '../../ports/model.js';
import type { InstanceLiveness } from '../../ports/liveness.js';
import { NoInstanceLiveness } from '../../adapters/store/no-instance-liveness.js';
import type { WebhookVerifier } from '../../ports/webhook-verifier.js';
import type { Principal } from '../../domain/principal.js';
import type { Limits } from '../../domain/usage/budget.js';
import type { PorterOptions } from '../../composition/config/porter-options.js';
import { testContainer } from '../../composition/containers/test-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import { AUTOMATION_TOKENS } from '../../composition/modules/automations-tokens.js';
import { COMPLETION_WEBHOOK_TOKENS } from '../../composition/modules/completion-webhooks-tokens.js';
import { GUARD_TOKENS } from '../../composition/modules/guard-tokens.js';
import { RUN_TOKENS } from '../../composition/modules/runs-tokens.js';
import { SCHEDULER_TOKENS } from '../../composition/modules/scheduler-tokens.js';
import { TICK_TOKENS } from '../../composition/modules/tick-tokens.js';
import { USAGE_TOKENS } from '../../composition/modules/usage-tokens.js';
import { WEBHOOK_TOKENS } from '../../composition/modules/webhooks-tokens.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { StandardWebhooksSender } from '../../adapters/webhooks/standard-webhooks-sender.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import { AiSdkModel } from '../../adapters/model/ai-sdk-model.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import { StaticWebhookSources } from '../../adapters/webhooks/static-webhook-sources.js';
import { ada, guardOf } from './guard-harness.js';
import { RecordingLogger, SequentialIds } from './fakes.js';
import { ManualClock } from './manual-clock.js';

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
  /** This instance's liveness mark (a fake in tests); absent, NoInstanceLiveness: leases alone tell a crash. */
  liveness?: InstanceLiveness;
}

/**
 * Automations, runs, the tick and webhook intake over the real guard and agent loop, in memory:
 * the production modules (testContainer), with the test's clock, ids, dispatchers, tools, webhook
 * sources and run settings in place of theirs.
 */
export function automationsHarness(options: AutomationsHarnessOptions) {
  const clock = options.clock ?? new ManualClock('2026-06-01T12:00:00.000Z');
  const store = options.store ?? new MemoryStore({ clock });
  const logger = new RecordingLogger();
  const ids = new SequentialIds();
  const dispatcher = new ManualDispatcher(() => clock.now());
  const webhookDispatcher = new ManualDispatcher(() => clock.now());
  const model = options.agentModel ?? new AiSdkModel((options.model ?? new ScriptedLanguageModel()) as never, 'custom', 'test');
  const container = testContainer({ options: configOf(options), store, clock, logger, model }, ({ replace }) => {
    replace(TOKENS.Ids, ids);
    replace(GUARD_TOKENS.ToolRegistry, new StaticToolRegistry(options.tools));
    replace(SCHEDULER_TOKENS.RunDispatcher, dispatcher);
    replace(SCHEDULER_TOKENS.WebhookDispatcher, webhookDispatcher);
    replace(WEBHOOK_TOKENS.WebhookSources, new StaticWebhookSources(options.sources ?? {}));
    // Receivers in tests listen on this machine: the test composition lets the egress guard reach loopback.
    replace(COMPLETION_WEBHOOK_TOKENS.WebhookSender, new StandardWebhooksSender(new GuardedEgress({ allow: ['loopback'] }), 5_000));
    replace(RUN_TOKENS.RunSettings, {
      holder: options.holder ?? 'instance-a',
      leaseMs: options.leaseMs ?? 60_000,
      requeueAfterMs: 5 * 60_000,
      stopWaitMs: options.stopWaitMs ?? 2_000,
      stopPollMs: 10,
    });
    replace(RUN_TOKENS.Liveness, options.liveness ?? new NoInstanceLiveness());
  });
  const guard = guardOf(container, { clock, store, logger });
  const automationCases = get(container, AUTOMATION_TOKENS.AutomationUseCases);
  const runCases = get(container, RUN_TOKENS.RunUseCases);
  const executor = get(container, RUN_TOKENS.ExecuteRun);
  const deliver = get(container, COMPLETION_WEBHOOK_TOKENS.DeliverCompletionWebhook);
  const tick = get(container, TICK_TOKENS.Tick);
  return {
    ...guard,
    ids,
    meter: options.limits ? get(container, USAGE_TOKENS.UsageMeter) : undefined,
    approvalBook: guard.approvals,
    automations: get(container, AUTOMATION_TOKENS.AutomationBook),
    runs: get(container, RUN_TOKENS.RunBook),
    calendar: get(container, TICK_TOKENS.CronCalendar),
    dispatcher,
    webhookDispatcher,
    webhookBook: get(container, COMPLETION_WEBHOOK_TOKENS.CompletionWebhookBook),
    admission: get(container, RUN_TOKENS.RunAdmission),
    executor,
    deliver,
    sweep: get(container, RUN_TOKENS.SweepRuns),
    tick,
    authorizedTick: get(container, TICK_TOKENS.TickUseCases).tick,
    create: automationCases.createAutomation,
    change: automationCases.changeAutomation,
    grantBook: get(container, GUARD_TOKENS.GrantBook),
    arm: automationCases.armAutomation,
    disarm: automationCases.disarmAutomation,
    remove: automationCases.deleteAutomation,
    stop: runCases.stopRun,
    getRun: runCases.getRun,
    listRuns: runCases.listRuns,
    rerun: runCases.rerunRun,
    runNow: runCases.runAutomationNow,
    dryRun: runCases.dryRunAutomation,
    receive: get(container, WEBHOOK_TOKENS.WebhookUseCases).receiveDelivery,
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

/** The harness's options that are the deployment's, as a host passes them. */
function configOf(options: AutomationsHarnessOptions): PorterOptions {
  return {
    ...(options.secret ? { secret: options.secret } : {}),
    memory: false,
    knowledge: false,
    limits: options.limits ?? {},
    maxTurnsInFlight: options.maxTurnsInFlight ?? false,
    ...(options.tickSecret ? { tickSecret: options.tickSecret } : {}),
    ...(options.webhookRetryDelaysMs
      ? { completionWebhooks: { retryDelaysSeconds: options.webhookRetryDelaysMs.map((ms) => ms / 1000) } }
      : {}),
  };
}
