import { ContainerModule, type BindToFluentSyntax, type Container, type ResolutionContext } from 'inversify';
import type { PorterConfig } from './config/config-schema.js';
import type { DoorStores } from './containers/door.js';
import type { DoorRoutes } from './modules/door-routes.js';
import type { Clock } from '../ports/clock.js';
import type { Ids } from '../ports/ids.js';
import type { Logger } from '../ports/logger.js';
import type { Telemetry } from '../ports/telemetry.js';
import type { RecordSet, Store } from '../ports/store.js';
import type { Model } from '../ports/model.js';
import type { Sandbox } from '../ports/sandbox.js';
import type { AuditLog, AuditSink } from '../ports/audit.js';
import type { PrincipalResolver } from '../ports/principal-resolver.js';
import type { ToolDefinition, ToolRegistry } from '../ports/tool-registry.js';
import type { Egress } from '../ports/egress.js';
import type { ConnectionBroker } from '../ports/connections.js';
import type { AppGenerator } from '../ports/app-generator.js';
import type { PinCatalog } from '../ports/pin-catalog.js';
import type {
  BackgroundScheduler,
  CronCalendar,
  RunDispatcher,
  SchedulerWork,
  ScheduleWakeUps,
  WebhookDispatcher,
} from '../ports/scheduler.js';
import type { SecretBox, WebhookSender } from '../ports/webhook-sender.js';
import type { WebhookSources } from '../ports/webhook-verifier.js';
import type { DoorBearerVerifier } from '../ports/door-bearer-verifier.js';
import type { DoorPrincipalLookup } from '../ports/door-principals.js';
import type { DoorSecrets } from '../ports/door-secrets.js';
import type { ThreadUseCases } from '../ports/use-cases/threads.js';
import type { ToolUseCases } from '../ports/use-cases/tools.js';
import type { StatusBlocks, SystemUseCases } from '../ports/use-cases/system.js';
import type { IdentityUseCases } from '../ports/use-cases/identity.js';
import type { GuardUseCases } from '../ports/use-cases/guard.js';
import type { MemoryUseCases } from '../ports/use-cases/memory.js';
import type { MemoryBook } from '../application/memory/memory-book.js';
import type { MemoryScopes } from '../application/memory/memory-scopes.js';
import type { KnowledgeUseCases } from '../ports/use-cases/knowledge.js';
import type { DoctorUseCases } from '../ports/use-cases/doctor.js';
import type { AutomationUseCases } from '../ports/use-cases/automations.js';
import type { RunUseCases, TickUseCases } from '../ports/use-cases/runs.js';
import type { WebhookUseCases } from '../ports/use-cases/webhooks.js';
import type { AppActionUseCases, AppsUseCases } from '../ports/use-cases/apps.js';
import type { ConnectionsUseCases } from '../ports/use-cases/connections.js';
import type { DevelopmentUseCases } from '../ports/use-cases/development.js';
import type { DoorOAuthUseCases, DoorTransportUseCases } from '../ports/use-cases/door.js';
import type { AuditTrail } from '../application/audit/audit-trail.js';
import type { DeploymentFacts } from '../application/system/get-status.js';
import type { SessionAdopter } from '../application/identity/session-adopter.js';
import type { ThreadBook } from '../application/threads/thread-book.js';
import type { FileBook } from '../application/files/file-book.js';
import type { ThreadFiles } from '../application/files/thread-files.js';
import type { MessageAttachments } from '../application/files/message-attachments.js';
import type { ModelAttachments } from '../application/files/model-attachments.js';
import type { FileBlobs } from '../ports/file-blobs.js';
import type { FileUseCases } from '../ports/use-cases/files.js';
import type { TurnHub } from '../application/threads/turn-hub.js';
import type { TurnReaders } from '../application/threads/turn-readers.js';
import type { AgentTurn } from '../application/threads/agent-turn.js';
import type { TurnRecall } from '../application/threads/turn-steps.js';
import type { ApprovalBook } from '../application/guard/approval-book.js';
import type { GrantBook } from '../application/guard/grant-book.js';
import type { ApprovalHook } from '../application/guard/approval-hooks.js';
import type { ActAsSeam } from '../application/guard/act-as-seam.js';
import type { HostAccess } from '../application/guard/host-access.js';
import type { ToolRunner } from '../application/guard/tool-runner.js';
import type { ExecuteApproved } from '../application/guard/execute-approved.js';
import type { GuardCall } from '../application/guard/guard-call.js';
import type { UsageMeter } from '../application/usage/usage-meter.js';
import type { TurnSlots } from '../application/usage/turn-slots.js';
import type { UsageUseCases } from '../ports/use-cases/usage.js';
import type { AutomationBook } from '../application/automations/automation-book.js';
import type { RunBook } from '../application/runs/run-book.js';
import type { ExecuteRun } from '../application/runs/execute-run.js';
import type { StartRuns } from '../application/runs/start-runs.js';
import type { RunAdmission } from '../application/runs/run-admission.js';
import type { RunFollowUp } from '../application/runs/run-follow-up.js';
import type { CompletionWebhookBook } from '../application/runs/completion-webhook-book.js';
import type { DeliverCompletionWebhook } from '../application/runs/deliver-completion-webhook.js';
import type { Tick } from '../application/scheduler/tick.js';
import type { AppBook } from '../application/apps/app-book.js';
import type { ConnectionBook } from '../application/connections/connection-book.js';
import type { ToolConnections } from '../application/connections/connection-gate.js';
import type { ToolDependents } from '../application/development/tool-dependents.js';
import type { DoorSettings } from '../application/door/door-settings.js';
import type { DoorSessions } from '../application/door/door-sessions.js';
import type { KoaWire } from '../adapters/http/koa-wire.js';
import type { WireRoutes } from '../adapters/http/wire-routes.js';
import type { PendingDeletionBook } from '../application/deletions/pending-deletion-book.js';
import type { PurgeDueDeletions } from '../application/deletions/purge-due-deletions.js';
import type { Deletable } from '../application/deletions/deletable.js';
import type { DeletableKind } from '../domain/deletions/pending-deletion.js';
import type { DeletionAlarm } from '../adapters/scheduler/deletion-alarm.js';
import type { DeletionUseCases } from '../ports/use-cases/deletions.js';
import type { TransportSession } from '../adapters/mcp/mcp-door-transport.js';

/**
 * Typed wiring. Every Inversify service identifier is a `Token<T>` that remembers what it names,
 * and modules resolve and bind only through the helpers below, so `tsc` checks the wiring:
 * `get(ctx, TOKENS.Clock)` is a Clock, `bind(TOKENS.Clock)` must be given one, and a constructor
 * handed the wrong service (the guard where the tool registry goes) does not compile. ESLint
 * forbids calling the container's own `get`/`getAll` anywhere else. Only composition/ knows these;
 * the core never sees the container.
 */
declare const names: unique symbol;
declare const many: unique symbol;

/** A service bound once: resolved with `get`. */
export type Token<T> = symbol & { readonly [names]: T };
/** A service every family may add to (routes, status blocks, hooks…): resolved with `getAll`. */
export type MultiToken<T> = symbol & { readonly [many]: T };

/** The token of one service, named `porter.<name>`. */
export function token<T>(name: string): Token<T> {
  return Symbol.for(`porter.${name}`) as Token<T>;
}

/** What a binding resolves from: its resolution context, or a container (Porter's own tools, the tests). */
export type Resolver = Pick<ResolutionContext, 'get' | 'getAll'>;

/** The one service the token names. */
export function get<T>(from: Resolver, service: Token<T>): T {
  return from.get<T>(service);
}

/** The service, or undefined when no module bound it. */
export function getOptional<T>(from: Resolver, service: Token<T>): T | undefined {
  return from.get<T>(service, { optional: true });
}

/** Everything bound under a multi-token, in binding order; empty when nothing was. */
export function getAll<T>(from: Resolver, services: MultiToken<T>): T[] {
  return from.getAll<T>(services, { optional: true });
}

/** A module's `bind`: what it binds must be what the token names. */
export interface Bind {
  <T>(service: Token<T> | MultiToken<T>): BindToFluentSyntax<T>;
  /**
   * Most of Porter's wiring: the service made once, on first use, from what the container
   * resolves. `make` must return what the token names (NoInfer: the token alone decides T).
   */
  singleton<T>(service: Token<T> | MultiToken<T>, make: (ctx: ResolutionContext) => NoInfer<T>): void;
}

/** A ContainerModule whose bindings are checked against their tokens. */
export function porterModule(register: (bind: Bind) => void): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const checked = <T>(service: Token<T> | MultiToken<T>) => bind<T>(service);
    const singleton = <T>(service: Token<T> | MultiToken<T>, make: (ctx: ResolutionContext) => T): void => {
      bind<T>(service).toDynamicValue(make).inSingletonScope();
    };
    register(Object.assign(checked, { singleton }));
  });
}

/** How a test puts its own piece in place of a module's (composition/containers/test-container.ts). */
export interface Overrides {
  /** The service a token names, instead of the one its module binds. */
  replace<T>(service: Token<T>, value: NoInfer<T>): void;
  /** One more service under a multi-token, after the modules' own. */
  add<T>(service: MultiToken<T>, value: NoInfer<T>): void;
}

/** A module loaded after the others that replaces what they bound, checked against the tokens as porterModule is. */
export function overridingModule(register: (overrides: Overrides) => void): ContainerModule {
  return new ContainerModule(({ bind, rebind }) => {
    register({
      replace: (service, value) => void rebind(service).toConstantValue(value),
      add: (service, value) => void bind(service).toConstantValue(value),
    });
  });
}

/** A collection on the store, as the books over it take it. */
export function recordsOf<P>(ctx: Resolver, collection: string): RecordSet<P> {
  return get(ctx, TOKENS.Store).records<P>(collection);
}

/** Every service bound once, by the name of its token (`TOKENS.<name>`, resolved with `get`). */
interface Services {
  Config: PorterConfig;
  Environment: NodeJS.ProcessEnv;
  Model: Model;
  ThreadBook: ThreadBook;
  TurnHub: TurnHub;
  /** Readers of turns on every instance, known through the store; null unless the host gives up unread turns. */
  TurnReaders: TurnReaders | null;
  AgentTurn: AgentTurn;
  ThreadUseCases: ThreadUseCases;
  /** Uploaded files' metadata, and where their bytes are kept (`uploads.store`). */
  FileBook: FileBook;
  FileBlobs: FileBlobs;
  FileUseCases: FileUseCases;
  /** A thread's files, deleted with it. */
  ThreadFiles: ThreadFiles;
  /** A new message's file parts, checked against the person's uploads. */
  MessageAttachments: MessageAttachments;
  /** The thread's files in the form the model's provider takes. */
  ModelAttachments: ModelAttachments;
  Clock: Clock;
  Ids: Ids;
  Logger: Logger;
  /** Traces (`@opentelemetry/api`, or nothing with `telemetry: false`). */
  Telemetry: Telemetry;
  Store: Store;
  AuditSink: AuditSink & AuditLog;
  AuditLog: AuditLog;
  AuditTrail: AuditTrail;
  PrincipalResolver: PrincipalResolver;
  DeploymentFacts: DeploymentFacts;
  SystemUseCases: SystemUseCases;
  IdentityUseCases: IdentityUseCases;
  KoaWire: KoaWire;
  ToolRegistry: ToolRegistry;
  ToolUseCases: ToolUseCases;
  ApprovalBook: ApprovalBook;
  GrantBook: GrantBook;
  ActAsSeam: ActAsSeam;
  HostAccess: HostAccess;
  ToolRunner: ToolRunner;
  /** The egress guard's fetch: how Porter reaches out on someone's behalf (tools' `context.fetch`). */
  Egress: Egress;
  ExecuteApproved: ExecuteApproved;
  GuardCall: GuardCall;
  GuardUseCases: GuardUseCases;
  /** The subjects' budgets (`limits`) and the breakers, on the store. */
  UsageMeter: UsageMeter;
  /** The bound on each subject's turns in flight (`maxTurnsInFlight`), on the store. */
  TurnSlots: TurnSlots;
  UsageUseCases: UsageUseCases;
  DoctorUseCases: DoctorUseCases;
  CronCalendar: CronCalendar;
  /** "A schedule was armed", to every instance's ticker (absent on a host's Store without feeds). */
  ScheduleWakeUps: ScheduleWakeUps | null;
  AutomationBook: AutomationBook;
  RunBook: RunBook;
  RunDispatcher: RunDispatcher;
  ExecuteRun: ExecuteRun;
  StartRuns: StartRuns;
  /** An automation's concurrency slots, decided by the store. */
  RunAdmission: RunAdmission;
  /** What follows a run's end: its slot, the next queued run, its completion webhook. */
  RunFollowUp: RunFollowUp;
  CompletionWebhookBook: CompletionWebhookBook;
  /** Hands completion webhooks to a sender: pg-boss jobs, or this process. */
  WebhookDispatcher: WebhookDispatcher;
  /** Signs and sends completion webhooks (Standard Webhooks) through the egress guard. */
  WebhookSender: WebhookSender;
  /** Seals secrets Porter must use again (completion-webhook secrets) with the deployment's secret. */
  SecretBox: SecretBox;
  DeliverCompletionWebhook: DeliverCompletionWebhook;
  Tick: Tick;
  SchedulerWork: SchedulerWork;
  AutomationUseCases: AutomationUseCases;
  RunUseCases: RunUseCases;
  TickUseCases: TickUseCases;
  WebhookSources: WebhookSources;
  WebhookUseCases: WebhookUseCases;
  /** The Sandbox port (bound only when a sandbox is configured; graduation answers 501 without one). */
  Sandbox: Sandbox;
  AppBook: AppBook;
  AppGenerator: AppGenerator;
  PinCatalog: PinCatalog;
  AppsUseCases: AppsUseCases;
  /** Apps running host tools through the guard (apart from AppsUseCases, which the guard's tools use). */
  AppActionUseCases: AppActionUseCases;
  ConnectionBroker: ConnectionBroker;
  ConnectionBook: ConnectionBook;
  ConnectionGate: ToolConnections;
  ConnectionsUseCases: ConnectionsUseCases;
  DevelopmentUseCases: DevelopmentUseCases;
  MemoryBook: MemoryBook;
  MemoryScopes: MemoryScopes;
  MemoryUseCases: MemoryUseCases;
  /** Deletions waiting out their undo window, shared by every instance on the store. */
  PendingDeletions: PendingDeletionBook;
  /** Each mounted family's deletion with a way back, by kind. */
  Deletables: ReadonlyMap<DeletableKind, Deletable>;
  PurgeDueDeletions: PurgeDueDeletions;
  /** Purges on time on this instance (the tick's sweep is the backstop). */
  DeletionAlarm: DeletionAlarm;
  DeletionUseCases: DeletionUseCases;
  /** The documents Porter answers from: what `porter.knowledge` and the `/knowledge` routes call. */
  KnowledgeUseCases: KnowledgeUseCases;
  /** What a turn recalls of the person's memories (bound only when `memory` is on). */
  TurnRecall: TurnRecall;
  /** The composition root itself, so a child container (the door's) can be made from it. */
  Container: Container;
  /** The MCP door's child container (bound only with `mcp: true`). */
  DoorContainer: Container;
  DoorSettings: DoorSettings;
  DoorSecrets: DoorSecrets;
  DoorStores: DoorStores;
  DoorSessions: DoorSessions<TransportSession>;
  DoorBearerVerifier: DoorBearerVerifier;
  DoorPrincipals: DoorPrincipalLookup;
  DoorOAuthUseCases: DoorOAuthUseCases;
  DoorTransportUseCases: DoorTransportUseCases;
  DoorRoutes: DoorRoutes;
}

/** Every service each family may add to, by the name of its token (resolved with `getAll`). */
interface MultiServices {
  SessionAdopters: SessionAdopter;
  WireRoutes: WireRoutes;
  /** Each family's part of `/status` (multi-bound; merged in binding order). */
  StatusBlocks: Partial<StatusBlocks>;
  /** Porter's own agent tools: each family binds the list of its tools (multi-bound; the registry holds them all). */
  PorterTools: ReadonlyArray<ToolDefinition>;
  ApprovalHooks: ApprovalHook;
  /** Background work started after the container is built and stopped on close (multi-bound). */
  Background: BackgroundScheduler;
  /** Multi-bound: each family that depends on tools (apps, automations, grants) counts its dependents for /sync/impact. */
  ToolDependents: ToolDependents;
}

/**
 * The tokens, each named by its key: `TOKENS.Clock` is `porter.Clock`, a Token<Clock>. Made on
 * first use with `Symbol.for`, so a name is the same token wherever it is read, and the name is
 * written once, in the interfaces above.
 */
export const TOKENS = new Proxy({}, { get: (_target, name) => (typeof name === 'string' ? Symbol.for(`porter.${name}`) : undefined) }) as {
  readonly [K in keyof Services]: Token<Services[K]>;
} & { readonly [K in keyof MultiServices]: MultiToken<MultiServices[K]> };
