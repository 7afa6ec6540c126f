import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address stands for, as anonymous sessions share budgets by it: an IPv4
 * address itself (an IPv4-mapped IPv6 address, `::ffff:203.0.113.7`, is that IPv4 address), and
 * an IPv6 address's /64, which one subscriber usually holds whole and could otherwise walk through
 * for a fresh budget per address. Undefined for anything that is not an address (none was given).
 */
export function clientNetworkOf(address: string): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const unzoned = bare.split('%')[0]!;
  if (isIPv4(unzoned)) return unzoned;
  if (!isIPv6(unzoned)) return undefined;
  const groups = expandIPv6(unzoned.toLowerCase());
  const mapped = /^0:0:0:0:0:ffff:/.test(groups.join(':'));
  if (mapped) return ipv4Of(groups.slice(6));
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (an embedded IPv4 tail turned into two groups). */
function expandIPv6(address: string): string[] {
  let text = address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const zeros = rest === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}

function ipv4Of(groups: string[]): string {
  const [high, low] = groups.map((group) => parseInt(group, 16)) as [number, number];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
