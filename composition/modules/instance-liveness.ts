import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { get, TOKENS, type Resolver } from '../tokens.js';
import type { InstanceLiveness } from '../../ports/liveness.js';

/** Who this process is, in run leases, completion-webhook leases and the holds of turns. */
export const HOLDER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** This instance's liveness mark on engines that keep one (PostgreSQL's session advisory lock), else null. */
export function livenessOf(ctx: Resolver): InstanceLiveness | null {
  return get(ctx, TOKENS.Store).liveness?.() ?? null;
}
