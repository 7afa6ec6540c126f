import { isIP } from 'node:net';
import { InvalidInput } from '../../../domain/errors.js';
import type { EgressPolicy } from '../../../ports/sandbox.js';

/** Decides, per destination host, whether a sandbox may reach it. */
export type EgressRule = (host: string) => boolean;

export function normaliseHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/**
 * A raw address rather than a name. Besides the literals `net.isIP` knows, resolvers accept
 * numeric shorthands (`127.1`, `2130706433`, `0x7f000001`); no real top-level domain is numeric,
 * so a numeric last label marks an address too.
 */
export function isAddressLiteral(host: string): boolean {
  const bare = normaliseHost(host);
  if (isIP(bare) !== 0) return true;
  const last = bare.split('.').pop() ?? '';
  return /^(0x[0-9a-f]*|[0-9]+)$/i.test(last);
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The domains of a policy, checked: names only (an address in an allow-list would defeat the raw-IP block). */
export function policyDomains(policy: EgressPolicy): string[] {
  return policy.allowDomains.map((entry) => {
    const domain = normaliseHost(entry);
    if (!HOSTNAME.test(domain) || isAddressLiteral(domain)) {
      throw new InvalidInput(`An egress policy lists domain names only (got ${JSON.stringify(String(entry).slice(0, 100))})`);
    }
    return domain;
  });
}

/** With a policy: names in the list or under one of them, never an address. Without: anything. */
export function ruleFor(policy: EgressPolicy | null): EgressRule {
  if (!policy) return () => true;
  const domains = policyDomains(policy);
  return (host) => {
    if (isAddressLiteral(host)) return false;
    const name = normaliseHost(host);
    return domains.some((domain) => name === domain || name.endsWith(`.${domain}`));
  };
}

/** Two policies that allow the same destinations. */
export function samePolicy(a: EgressPolicy | null, b: EgressPolicy | null): boolean {
  if (a === null || b === null) return a === b;
  const left = [...new Set(policyDomains(a))].sort();
  const right = [...new Set(policyDomains(b))].sort();
  return left.length === right.length && left.every((domain, i) => domain === right[i]);
}
