import { RESERVED_SUBJECT_PREFIX, type Principal } from '../principal.js';

/**
 * Who pays for what a request spends: its subject, and for an anonymous session also the network
 * it calls from. A principal is one; a run's owner (never anonymous) is one by its subject alone.
 */
export type Payer = Pick<Principal, 'subject' | 'anonymous' | 'address'>;

/**
 * The key every anonymous session calling from `address` is also charged under. A session whose
 * address the wire did not know (a `fetch` mount given no `ip`) shares the one key of unknown
 * addresses: failing closed, never a fresh budget per cookie. In the reserved namespace, so no
 * host subject can be it.
 */
export function addressKey(address: string | undefined): string {
  return `${RESERVED_SUBJECT_PREFIX}address:${address ?? 'unknown'}`;
}
