import type { Presence, Risk, Venue } from './risk.js';
import type { RuledCall } from './tool-call.js';

export type PolicyAction = 'run' | 'ask' | 'block';

/** A host rule: every given field must match; the first matching rule wins. */
export interface PolicyRule {
  /** Tool name glob: `*` matches any run of characters (`notes_*`, `*_delete`). */
  readonly tool?: string;
  readonly risk?: Risk | ReadonlyArray<Risk>;
  readonly venue?: Venue | ReadonlyArray<Venue>;
  readonly presence?: Presence;
  readonly action: PolicyAction;
}

export function globMatches(glob: string, name: string): boolean {
  const pattern = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`).test(name);
}

const oneOf = <T>(wanted: T | ReadonlyArray<T> | undefined, actual: T) =>
  wanted === undefined || (Array.isArray(wanted) ? wanted.includes(actual) : wanted === actual);

export function ruleMatches(rule: PolicyRule, call: RuledCall): boolean {
  return (
    (rule.tool === undefined || globMatches(rule.tool, call.tool)) &&
    oneOf(rule.risk, call.effective.risk) &&
    oneOf(rule.venue, call.venue) &&
    (rule.presence === undefined || rule.presence === call.presence)
  );
}

export function firstMatchingRule(rules: ReadonlyArray<PolicyRule>, call: RuledCall): PolicyRule | null {
  return rules.find((rule) => ruleMatches(rule, call)) ?? null;
}
