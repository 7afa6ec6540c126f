import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { get, TOKENS, type Resolver } from '../tokens.js';
import type { InstanceLiveness } from '../../ports/liveness.js';
import { NoInstanceLiveness } from '../../adapters/store/no-instance-liveness.js';

/** Who this process is, in run leases, completion-webhook leases and the holds of turns. */
export const HOLDER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** This instance's liveness mark on engines that keep one (PostgreSQL's session advisory lock), else null. */
export function engineLivenessOf(ctx: Resolver): InstanceLiveness | null {
  return get(ctx, TOKENS.Store).liveness?.() ?? null;
}

/** What the use cases judge holds by: the engine's marks, or NoInstanceLiveness where it keeps none. */
export function livenessOf(ctx: Resolver): InstanceLiveness {
  return engineLivenessOf(ctx) ?? new NoInstanceLiveness();
}
