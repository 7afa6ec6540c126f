import type { ParameterizedContext } from 'koa';
import type { RouterContext } from '@koa/router';
import type { Principal } from '../../domain/principal.js';

/** What the floor leaves on `ctx.state` for route handlers. */
export interface WireState {
  principal?: Principal;
}

export type WireContext = ParameterizedContext<WireState>;
export type WireRouteContext = RouterContext<WireState>;

/** The principal the floor resolved; route handlers behind the resolver always have one. */
export function principalOf(ctx: { state: WireState }): Principal {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('principalOf called on a route that is not behind the principal resolver');
  return principal;
}

/** The parsed JSON body, when the floor parsed one. */
export function bodyOf(ctx: { request: unknown }): unknown {
  return (ctx.request as { body?: unknown }).body;
}
