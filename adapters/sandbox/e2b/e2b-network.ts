import { ALL_TRAFFIC, type SandboxNetworkOpts } from 'e2b';
import type { EgressPolicy } from '../../../ports/sandbox.js';
import { policyDomains } from '../egress/egress-rules.js';

/**
 * An egress policy as e2b's firewall rules: deny all traffic, allow the listed names and their
 * subdomains. Allowed entries win over denied ones, and no address is ever listed, so raw-IP
 * requests stay blocked. No policy: no rules, unrestricted.
 */
export function e2bEgressRules(egress: EgressPolicy | null): Pick<SandboxNetworkOpts, 'allowOut' | 'denyOut'> {
  if (!egress) return {};
  const domains = [...new Set(policyDomains(egress))];
  return { allowOut: [...domains, ...domains.map((domain) => `*.${domain}`)], denyOut: [ALL_TRAFFIC] };
}
