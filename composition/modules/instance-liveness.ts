import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { get, TOKENS, type Resolver } from '../tokens.js';
import type { InstanceLiveness } from '../../ports/liveness.js';

const holders = new WeakMap<object, string>();

/**
 * Who this instance is, in run leases, completion-webhook leases and the holds of turns: one per
 * Porter, not per process, so two Porters in one process (a host's blue/green, a test's cluster)
 * each hold their own liveness mark, and one that closes is seen gone by the other.
 */
export function holderOf(ctx: Resolver): string {
  const container = get(ctx, TOKENS.Container);
  let holder = holders.get(container);
  if (!holder) holders.set(container, (holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`));
  return holder;
}

/** This instance's liveness mark on engines that keep one (PostgreSQL's session advisory lock), else null. */
export function livenessOf(ctx: Resolver): InstanceLiveness | null {
  return get(ctx, TOKENS.Store).liveness?.() ?? null;
}
