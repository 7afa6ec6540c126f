/**
 * Compiled by `npm run typecheck`, never run: each `@ts-expect-error` below is wiring that must
 * not compile. If one of them ever compiles, tsc fails on the unused directive, so the typed
 * tokens, the checked `bind` and the named dependencies keep guarding the composition.
 */
import { AgentTurn } from '../../application/threads/agent-turn.js';
import { UlidIds } from '../../adapters/runtime/ulid-ids.js';
import { agentTurnDeps } from '../../composition/modules/threads-module.js';
import { get, getAll, porterModule, TOKENS, type Resolver } from '../../composition/tokens.js';
import { GUARD_TOKENS } from '../../composition/modules/guard-tokens.js';

declare const ctx: Resolver;

/**
 * The agent loop as threads-module.ts builds it (`agentTurnDeps` is typed AgentTurnDeps, so a swap
 * there fails tsc), and the same with the tool registry and the guard swapped, which must not compile.
 */
export const wired = (): AgentTurn => new AgentTurn(agentTurnDeps(ctx));
export const swapped = (): AgentTurn =>
  new AgentTurn({
    ...agentTurnDeps(ctx),
    // @ts-expect-error the guard is not a tool registry
    tools: get(ctx, GUARD_TOKENS.GuardCall),
    // @ts-expect-error the tool registry is not the guard
    guard: get(ctx, GUARD_TOKENS.ToolRegistry),
  });

export const wrongBindings = porterModule((bind) => {
  // @ts-expect-error a token binds only what it names: ids are not a clock
  bind(TOKENS.Clock).toConstantValue(new UlidIds());
  bind(TOKENS.Ids).toConstantValue(new UlidIds());
});

export const wrongResolution = () => {
  // @ts-expect-error a multi-bound service is resolved with getAll, never get
  get(ctx, TOKENS.WireRoutes);
  // @ts-expect-error and a single service never with getAll
  getAll(ctx, TOKENS.Clock);
  // @ts-expect-error a bare symbol is no token
  get(ctx, Symbol.for('porter.Clock'));
};
