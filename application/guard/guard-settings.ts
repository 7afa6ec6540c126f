import type { PolicyRule } from '../../domain/guard/policy.js';

export interface GuardSettings {
  /** Host policy rules, first match wins (see domain/guard/policy). */
  readonly policy: ReadonlyArray<PolicyRule>;
  /** How long a parked call waits for an answer before it expires. */
  readonly approvalTtlMs: number;
}

export const DEFAULT_APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;
