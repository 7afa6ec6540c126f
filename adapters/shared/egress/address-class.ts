import ipaddr from 'ipaddr.js';
import type { AddressClass } from '../../../domain/guard/egress.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** ipaddr.js's IPv4 range names; one it adds later and this table lacks is `reserved` (fail closed). */
const V4_CLASS: Readonly<Record<string, AddressClass>> = {
  unicast: 'public',
  // Anycast services on the public internet.
  as112: 'public',
  amt: 'public',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade-nat',
  private: 'private',
  reserved: 'reserved',
  benchmarking: 'reserved',
};

/** The ipaddr.js IPv6 ranges that need no look inside; the embedding ones are handled in classifyV6. */
const V6_CLASS: Readonly<Record<string, AddressClass>> = {
  as112v6: 'public',
  amt: 'public',
  unspecified: 'unspecified',
  loopback: 'loopback',
  linkLocal: 'link-local',
  multicast: 'multicast',
  uniqueLocal: 'private',
  // fec0::/10, site-local before it was deprecated: private by intent.
  deprecatedSiteLocal: 'private',
};

/**
 * The class of one address as Porter would dial it (a dotted quad or an IPv6 literal, without
 * brackets). IPv6 forms that carry an IPv4 address (mapped, translated, compatible, NAT64, 6to4,
 * Teredo) take the class of what they carry, so `::ffff:127.0.0.1` is loopback. Anything that is
 * not an address at all is `reserved`: the guard never dials what it cannot classify.
 */
export function classifyAddress(address: string): AddressClass {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return classifyV4(ipaddr.IPv4.parse(address));
  if (ipaddr.IPv6.isValid(address)) {
    // Rewritten by URL first: ipaddr.js reads `::a.b.c.d` as if it were `::ffff:a.b.c.d`.
    const normal = canonicalHost(address);
    if (normal?.literal) return classifyV6(ipaddr.IPv6.parse(normal.host));
  }
  return 'reserved';
}

function classifyV4(ip: IPv4): AddressClass {
  return V4_CLASS[ip.range()] ?? 'reserved';
}

function classifyV6(ip: IPv6): AddressClass {
  const range: string = ip.range();
  const parts = ip.parts;
  const known = V6_CLASS[range];
  if (known) return known;
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d, IPv4-translated
      return classifyV4(v4From(parts[6]!, parts[7]!));
    case 'rfc6052':
      // 64:ff9b::/96 is well-known NAT64 to the carried address; 64:ff9b:1::/48 is for private NAT64 setups.
      return parts[2] === 0 ? classifyV4(v4From(parts[6]!, parts[7]!)) : 'private';
    case '6to4': // 2002:AABB:CCDD::/48 routes to AA.BB.CC.DD
      return classifyV4(v4From(parts[1]!, parts[2]!));
    case 'teredo': {
      // 2001:0:SSSS:SSSS:flags:port:~CCCC:~CCCC — the server, and the client with its bits inverted.
      const server = classifyV4(v4From(parts[2]!, parts[3]!));
      const client = classifyV4(v4From(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff));
      return server !== 'public' ? server : client;
    }
    case 'unicast':
      if (isV4Compatible(parts)) {
        // ::a.b.c.d, deprecated: never public, and named after what it carries when that is not public either.
        const carried = classifyV4(v4From(parts[6]!, parts[7]!));
        return carried === 'public' ? 'reserved' : carried;
      }
      // Only 2000::/3 is allocated for global unicast; the rest of the space is unassigned.
      return (parts[0]! & 0xe000) === 0x2000 ? 'public' : 'reserved';
    default:
      return 'reserved';
  }
}

function isV4Compatible(parts: ReadonlyArray<number>): boolean {
  return parts.slice(0, 6).every((part) => part === 0);
}

function v4From(high: number, low: number): IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * A host as a URL would dial it: WHATWG `URL` turns every numeric spelling of an IPv4 address
 * (`127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1`, a trailing dot) into a dotted quad and
 * compresses IPv6; names come back lower-cased, without brackets or trailing dots. Null when the
 * host is not a valid host (a port, credentials or a path in it included).
 */
export function canonicalHost(raw: string): { readonly host: string; readonly literal: boolean } | null {
  const bare = raw.replace(/^\[(.*)\]$/, '$1');
  if (bare === '' || /[/?#@\\\s]/.test(bare)) return null;
  const candidate = bare.includes(':') ? `[${bare}]` : bare;
  let url: URL;
  try {
    url = new URL(`http://${candidate}/`);
  } catch {
    return null;
  }
  if (url.port !== '' || url.username !== '' || url.password !== '' || url.pathname !== '/') return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host)) return { host, literal: true };
  return { host: host.replace(/\.+$/, ''), literal: false };
}

/** `localhost` and every name under it are loopback whatever a resolver says (RFC 6761). */
export function isLocalhostName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}
