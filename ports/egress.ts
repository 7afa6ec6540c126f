import type { AddressClass } from '../domain/guard/egress.js';

/** Where a URL leads, as the egress guard sees it before connecting (what an approval card shows). */
export interface EgressDestination {
  /** The URL's host as Porter would dial it: `2130706433` reads `127.0.0.1`, names are lower-cased. */
  readonly host: string;
  /** The host is an address rather than a name. */
  readonly literal: boolean;
  /** What the host resolved to, each address with its class (empty when it did not resolve, or was refused unasked). */
  readonly addresses: ReadonlyArray<{ readonly address: string; readonly class: AddressClass }>;
  /** The class that makes the guard refuse a request there, or null when it would connect. */
  readonly refused: AddressClass | null;
  /** The name did not resolve (in time). */
  readonly unresolved: boolean;
}

/**
 * How Porter reaches out on someone's behalf (host tools marked `egress`). Every request goes
 * through the egress guard: the host is resolved once, refused when any address is loopback,
 * private, link-local, CGNAT, multicast or otherwise not public, and the connection goes to the
 * address that was checked. Redirects are followed by hand, each hop checked again.
 */
export interface Egress {
  /** The Web `fetch`, guarded; a refusal rejects with an `egress-refused` DomainError. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Where an http(s) URL leads, without connecting; null for anything else. Never rejects. */
  destinationOf(url: string): Promise<EgressDestination | null>;
}
