import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { EgressRefused, type AddressClass, type GuardedAddressClass } from '../../../domain/guard/egress.js';
import { canonicalHost, classifyAddress, isLocalhostName } from './address-class.js';

/** Resolves a name to every address it would be dialled at (the system resolver unless a test injects one). */
export type NameLookup = (name: string) => Promise<ReadonlyArray<string>>;

export interface EgressGuardOptions {
  readonly lookup?: NameLookup;
  /**
   * Address classes let through besides public ones, by name. Empty by default everywhere,
   * development included; tests name `loopback` to reach the servers they start.
   */
  readonly allow?: ReadonlyArray<GuardedAddressClass>;
}

export interface ClassifiedAddress {
  readonly address: string;
  readonly family: 4 | 6;
  readonly class: AddressClass;
}

/** Where a host leads, looked up once: the addresses and their classes, and whether the guard refuses it. */
export interface Destination {
  /** The host as it is dialled: numeric spellings normalised, names lower-cased without trailing dots. */
  readonly host: string;
  /** The host was an address, not a name. */
  readonly literal: boolean;
  readonly addresses: ReadonlyArray<ClassifiedAddress>;
  /** Why the guard refuses this destination, or null when it would connect. */
  readonly refusal: EgressRefused | null;
}

/** A destination the guard admitted, and how to connect to exactly the addresses it checked. */
export interface AdmittedDestination extends Destination {
  readonly refusal: null;
  /** For node:net, node:http and node:https: answers with the checked addresses, never asks DNS again. */
  readonly lookup: LookupFunction;
}

/** The host is not a host, or its name does not resolve. */
export class UnresolvedHost extends TypeError {
  constructor(
    readonly host: string,
    reason: 'invalid' | 'unresolved',
    options?: ErrorOptions,
  ) {
    super(reason === 'invalid' ? `${JSON.stringify(host.slice(0, 100))} is not a valid host` : `${host} does not resolve`, options);
    this.name = 'UnresolvedHost';
  }
}

const systemLookup: NameLookup = async (name) => (await dnsLookup(name, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The one egress guard: every outbound connection Porter makes on someone's behalf asks it first.
 * It looks a name up once, refuses when any address it would use is not public (unless that class
 * is allowed by name), and hands back a lookup that answers with exactly those addresses, so the
 * connection cannot be steered elsewhere by a second, different answer (DNS rebinding).
 */
export class EgressGuard {
  private readonly lookup: NameLookup;
  private readonly allowed: ReadonlySet<AddressClass>;

  constructor(options: EgressGuardOptions = {}) {
    this.lookup = options.lookup ?? systemLookup;
    this.allowed = new Set<AddressClass>(['public', ...(options.allow ?? [])]);
  }

  /** Resolves and classifies a host without refusing it (what an approval card shows). */
  async inspect(rawHost: string): Promise<Destination> {
    const canonical = canonicalHost(rawHost);
    if (!canonical) throw new UnresolvedHost(rawHost, 'invalid');
    const { host, literal } = canonical;
    if (!literal && isLocalhostName(host) && !this.allowed.has('loopback')) {
      // Refused without asking DNS: whatever it answers, the name means this machine.
      return { host, literal, addresses: [], refusal: new EgressRefused(host, 'loopback', false) };
    }
    const addresses = literal ? [host] : await this.resolve(host);
    const classified = addresses.map((address): ClassifiedAddress => ({
      address,
      family: isIP(address) === 6 ? 6 : 4,
      class: classifyAddress(address),
    }));
    const refused = classified.find((entry) => !this.allowed.has(entry.class));
    const refusal = refused ? new EgressRefused(host, refused.class as GuardedAddressClass, literal) : null;
    return { host, literal, addresses: classified, refusal };
  }

  /** Resolves a host once and admits it, or throws EgressRefused (or UnresolvedHost). */
  async admit(rawHost: string): Promise<AdmittedDestination> {
    const destination = await this.inspect(rawHost);
    if (destination.refusal) throw destination.refusal;
    return { ...destination, refusal: null, lookup: pinnedLookup(destination.addresses) };
  }

  private async resolve(host: string): Promise<ReadonlyArray<string>> {
    let answers: ReadonlyArray<string>;
    try {
      answers = await this.lookup(host);
    } catch (error) {
      throw new UnresolvedHost(host, 'unresolved', { cause: error });
    }
    const addresses = answers.filter((address) => isIP(address) !== 0);
    // An answer that is not an address is not dialled; one with nothing usable does not resolve.
    if (addresses.length === 0 || addresses.length !== answers.length) throw new UnresolvedHost(host, 'unresolved');
    return addresses;
  }
}

/**
 * A node:net lookup that answers from checked addresses only. Node calls it with `all: true` when
 * it races address families, and with a family when the caller pinned one.
 */
export function pinnedLookup(addresses: ReadonlyArray<ClassifiedAddress>): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = family === 4 || family === 6 ? addresses.filter((entry) => entry.family === family) : addresses;
    process.nextTick(() => {
      const first = usable[0];
      if (!first) {
        callback(Object.assign(new Error(`no checked address of ${hostname} fits`), { code: 'ENOTFOUND' }), '', 0);
      } else if (options.all) {
        callback(
          null,
          usable.map(({ address, family: f }) => ({ address, family: f })),
        );
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}
