import { ContainerModule, type BindToFluentSyntax, type Container, type ResolutionContext } from 'inversify';
import type { PorterConfig } from './config/config-schema.js';
import type { Clock } from '../ports/clock.js';
import type { Ids } from '../ports/ids.js';
import type { Logger } from '../ports/logger.js';
import type { Telemetry } from '../ports/telemetry.js';
import type { RecordSet, Store } from '../ports/store.js';
import type { Model } from '../ports/model.js';
import type { AuditLog, AuditSink } from '../ports/audit.js';
import type { PrincipalResolver } from '../ports/principal-resolver.js';
import type { ToolDefinition } from '../ports/tool-registry.js';
import type { ConnectionBroker } from '../ports/connections.js';
import type { BackgroundScheduler } from '../ports/scheduler.js';
import type { StatusBlocks } from '../ports/use-cases/system.js';
import type { AuditTrail } from '../application/audit/audit-trail.js';
import type { SessionAdopter } from '../application/identity/session-adopter.js';
import type { ApprovalHook } from '../application/guard/approval-hooks.js';
import type { ToolDependents } from '../application/development/tool-dependents.js';
import type { WireRoutes } from '../adapters/http/wire-routes.js';

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

/** The token of one service, named `porter.<name>`: the same token wherever the name is read. */
export function token<T>(name: string): Token<T> {
  return Symbol.for(`porter.${name}`) as Token<T>;
}

/** The token of a service several families add to, named `porter.<name>`. */
export function multiToken<T>(name: string): MultiToken<T> {
  return Symbol.for(`porter.${name}`) as MultiToken<T>;
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

/**
 * The core's tokens, and the extension points every family adds to: what core-module.ts binds
 * (config, time, ids, logging, traces, the store, the audit trail, the loaded model and broker),
 * the composition root itself, and the multi-tokens. A family's own tokens live next to its module,
 * in `modules/<family>-tokens.ts` (`RUN_TOKENS`, `GUARD_TOKENS`…); test/composition/token-names.test.ts
 * keeps every name distinct, since a name is the token (`Symbol.for`).
 */
export const TOKENS = {
  Config: token<PorterConfig>('Config'),
  Environment: token<NodeJS.ProcessEnv>('Environment'),
  Model: token<Model>('Model'),
  Clock: token<Clock>('Clock'),
  Ids: token<Ids>('Ids'),
  Logger: token<Logger>('Logger'),
  /** Traces (`@opentelemetry/api`, or nothing with `telemetry: false`). */
  Telemetry: token<Telemetry>('Telemetry'),
  Store: token<Store>('Store'),
  AuditSink: token<AuditSink & AuditLog>('AuditSink'),
  AuditLog: token<AuditLog>('AuditLog'),
  AuditTrail: token<AuditTrail>('AuditTrail'),
  PrincipalResolver: token<PrincipalResolver>('PrincipalResolver'),
  ConnectionBroker: token<ConnectionBroker>('ConnectionBroker'),
  /** The composition root itself, so a child container (the door's) can be made from it. */
  Container: token<Container>('Container'),
  // Multi-bound: every family may add one (resolved with `getAll`).
  SessionAdopters: multiToken<SessionAdopter>('SessionAdopters'),
  WireRoutes: multiToken<WireRoutes>('WireRoutes'),
  /** Each family's part of `/status` (multi-bound; merged in binding order). */
  StatusBlocks: multiToken<Partial<StatusBlocks>>('StatusBlocks'),
  /** Porter's own agent tools: each family binds the list of its tools (multi-bound; the registry holds them all). */
  PorterTools: multiToken<ReadonlyArray<ToolDefinition>>('PorterTools'),
  ApprovalHooks: multiToken<ApprovalHook>('ApprovalHooks'),
  /** Background work started after the container is built and stopped on close (multi-bound). */
  Background: multiToken<BackgroundScheduler>('Background'),
  /** Multi-bound: each family that depends on tools (apps, automations, grants) counts its dependents for /sync/impact. */
  ToolDependents: multiToken<ToolDependents>('ToolDependents'),
};
