import { DomainError } from '../errors.js';

/**
 * The kinds of network address the egress guard tells apart. Only `public` is reachable on
 * someone's behalf unless a deployment allows another class by name.
 */
export type AddressClass =
  'public' | 'loopback' | 'unspecified' | 'private' | 'link-local' | 'carrier-grade-nat' | 'multicast' | 'broadcast' | 'reserved';

/** A class the guard refuses unless allowed. */
export type GuardedAddressClass = Exclude<AddressClass, 'public'>;

export const GUARDED_ADDRESS_CLASSES: ReadonlyArray<GuardedAddressClass> = [
  'loopback',
  'unspecified',
  'private',
  'link-local',
  'carrier-grade-nat',
  'multicast',
  'broadcast',
  'reserved',
];

const WHAT: Readonly<Record<GuardedAddressClass, string>> = {
  loopback: 'a loopback address',
  unspecified: 'the unspecified address',
  private: 'a private-network address',
  'link-local': 'a link-local address (where cloud metadata services answer)',
  'carrier-grade-nat': 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

/**
 * An outbound request on someone's behalf that would reach a non-public address. Names the host
 * and the class only: the address a name resolved to stays out of the message, so a refusal does
 * not map the host's network for whoever asked.
 */
/** `details.reason` of an egress refusal. */
export const EGRESS_REFUSED = 'egress-refused';

export class EgressRefused extends DomainError {
  constructor(
    readonly host: string,
    readonly addressClass: GuardedAddressClass,
    /** The host was the address itself rather than a name resolving to it. */
    literal: boolean,
  ) {
    // The contract's `forbidden`; `details.reason` tells an egress refusal from the other kinds.
    super('forbidden', `Porter will not connect to ${host}: ${literal ? 'it is' : 'it resolves to'} ${WHAT[addressClass]}`, {
      reason: EGRESS_REFUSED,
      host,
      addressClass,
    });
  }
}
