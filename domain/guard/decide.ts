import type { Grant } from './grant.js';
import { firstMatchingRule, type PolicyRule } from './policy.js';
import { asksByDefault } from './risk.js';
import type { RuledCall } from './tool-call.js';

export type GuardDecision =
  | { readonly kind: 'run'; readonly because: 'read-class' | 'grant' | 'policy'; readonly grantId?: string }
  | { readonly kind: 'ask'; readonly because: 'risk' | 'policy' }
  | { readonly kind: 'block'; readonly because: 'policy' };

/**
 * The guard's rule, in order: a policy `block` is final; a grant that covers the call lets it run;
 * a policy `run` or `ask` decides next; otherwise reads that stay inside run and everything else
 * (writes, destructive actions, egress) asks.
 */
export function decide(call: RuledCall, grants: ReadonlyArray<Grant>, rules: ReadonlyArray<PolicyRule>): GuardDecision {
  const rule = firstMatchingRule(rules, call);
  if (rule?.action === 'block') return { kind: 'block', because: 'policy' };
  const grant = grants.find((g) => g.covers(call));
  if (grant) return { kind: 'run', because: 'grant', grantId: grant.id };
  if (rule?.action === 'run') return { kind: 'run', because: 'policy' };
  if (rule?.action === 'ask') return { kind: 'ask', because: 'policy' };
  return asksByDefault(call.effective) ? { kind: 'ask', because: 'risk' } : { kind: 'run', because: 'read-class' };
}
