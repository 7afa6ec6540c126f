/**
 * URL shapes as regular expressions, so a JSON Schema `pattern` can say them and a route's schema
 * checks them: what such a pattern takes, the WHATWG URL parser takes too. Schemes and the
 * loopback host names match in any letter case, as the parser folds them.
 */

/** `javascript` → `[Jj][Aa]…`: a word in any letter case. */
export function caseless(word: string): string {
  return [...word]
    .map((c) => (/[a-z]/i.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
}

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** A DNS name whose last label starts with a letter (one of digits would be read as an IPv4 address). */
const NAME = `(?:${LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.?`;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const IPV6 = [
  `(?:${H16}:){7}${H16}`,
  `(?:${H16}:){1,7}:`,
  `(?:${H16}:){1,6}:${H16}`,
  `(?:${H16}:){1,5}(?::${H16}){1,2}`,
  `(?:${H16}:){1,4}(?::${H16}){1,3}`,
  `(?:${H16}:){1,3}(?::${H16}){1,4}`,
  `(?:${H16}:){1,2}(?::${H16}){1,5}`,
  `${H16}:(?::${H16}){1,6}`,
  `:(?:(?::${H16}){1,7}|:)`,
].join('|');
const HOST = `(?:${NAME}|${IPV4}|\\[(?:${IPV6})\\])`;
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?';

/** An absolute `http:` or `https:` URL without credentials (no `user:password@`). */
export const HTTP_URL = new RegExp(`^${caseless('http')}[Ss]?://${HOST}${PORT}(?:[/?#]\\S*)?$`);

/** The same without a fragment: path and query only. */
export const HTTP_URL_NO_FRAGMENT = new RegExp(`^${caseless('http')}[Ss]?://${HOST}${PORT}(?:[/?][^\\s#]*)?$`);

/** Pieces for other URL shapes (the door's redirect URIs). */
export const URL_PARTS = { HOST, PORT } as const;
