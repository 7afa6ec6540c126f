import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { get, TOKENS, type Resolver } from '../tokens.js';
import type { InstanceLiveness } from '../../ports/liveness.js';
import { NoInstanceLiveness } from '../../adapters/store/no-instance-liveness.js';

const holders = new WeakMap<object, string>();

/**
 * Who this instance is, in run leases, completion-webhook leases and the holds of turns: one per
 * store a Porter opened (whose liveness mark it holds), not per process, so two Porters in one
 * process (a host's blue/green, a test's cluster) each hold a mark of their own, and one that
 * closes is seen gone by the other. Porters handed one Store share its mark, so they share a holder.
 */
export function holderOf(ctx: Resolver): string {
  const store = get(ctx, TOKENS.Store);
  let holder = holders.get(store);
  if (!holder) holders.set(store, (holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`));
  return holder;
}

/** This instance's liveness mark on engines that keep one (PostgreSQL's session advisory lock), else null. */
export function engineLivenessOf(ctx: Resolver): InstanceLiveness | null {
  return get(ctx, TOKENS.Store).liveness?.() ?? null;
}

/** What the use cases judge holds by: the engine's marks, or NoInstanceLiveness where it keeps none. */
export function livenessOf(ctx: Resolver): InstanceLiveness {
  return engineLivenessOf(ctx) ?? new NoInstanceLiveness();
}
