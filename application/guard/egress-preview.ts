import type { Egress, EgressDestination } from '../../ports/egress.js';

/** URLs named on one card, and addresses shown per URL: enough to decide, short enough to read. */
const MAX_URLS = 3;
const MAX_ADDRESSES = 3;
/** How far into an input the URLs are looked for (nested objects and arrays). */
const MAX_DEPTH = 4;
const MAX_VALUES = 200;

/**
 * Says on an egress call's approval card where the call goes: for each http(s) URL in its input,
 * the host and the address it resolves to now, and whether the egress guard will refuse it. A
 * person approving `http://2130706433:3000/` then reads `→ 127.0.0.1 (loopback: will be refused)`
 * rather than a bare number.
 */
export class EgressPreview {
  constructor(private readonly egress: Egress) {}

  async describe(preview: string, input: unknown): Promise<string> {
    const urls = urlsIn(input);
    if (urls.length === 0) return preview;
    const shown = await Promise.all(urls.map(async (url) => ({ url, destination: await this.egress.destinationOf(url) })));
    const described = shown.flatMap(({ url, destination }) => (destination ? [{ url, where: whereTo(destination) }] : []));
    if (described.length === 0) return preview;
    if (described.length === 1) return `${preview} → ${described[0]!.where}`;
    return `${preview} → ${described.map(({ url, where }) => `${url}: ${where}`).join('; ')}`;
  }
}

/** `example.com (93.184.215.14)`, `127.0.0.1 (loopback: will be refused)`, `nowhere.example (does not resolve)`. */
export function whereTo(destination: EgressDestination): string {
  if (destination.unresolved) return `${destination.host} (does not resolve)`;
  const verdict = destination.refused ? `${destination.refused}: will be refused` : null;
  const addresses = destination.addresses.map((entry) => entry.address);
  const listed = addresses.length > MAX_ADDRESSES ? [...addresses.slice(0, MAX_ADDRESSES), '…'] : addresses;
  if (destination.literal) return verdict ? `${destination.host} (${verdict})` : destination.host;
  const notes = [...listed, ...(verdict ? [verdict] : [])];
  return notes.length > 0 ? `${destination.host} (${notes.join(', ')})` : destination.host;
}

/** The distinct http(s) URLs among an input's string values, in order, up to MAX_URLS. */
function urlsIn(input: unknown): string[] {
  const found = new Set<string>();
  let visited = 0;
  const visit = (value: unknown, depth: number): void => {
    if (found.size >= MAX_URLS || visited++ >= MAX_VALUES) return;
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (/^https?:\/\//i.test(trimmed) && URL.canParse(trimmed)) found.add(trimmed);
    } else if (depth < MAX_DEPTH && Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (depth < MAX_DEPTH && typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) visit(item, depth + 1);
    }
  };
  visit(input, 0);
  return [...found];
}
