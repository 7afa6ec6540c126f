import type { GuardDecision } from './decide.js';
import { asksByDefault, type EffectiveRisk } from './risk.js';

/**
 * In a dry run, what is previewed instead of run: every write, destructive action and egress
 * call (whatever grants or policy would say), and anything the policy would ask about. Reads that
 * stay inside run, so the task sees real data; what the policy blocks stays blocked.
 */
export function previewsInDryRun(effective: EffectiveRisk, withoutGrants: GuardDecision): boolean {
  if (withoutGrants.kind === 'block') return false;
  return withoutGrants.kind === 'ask' || asksByDefault(effective);
}
