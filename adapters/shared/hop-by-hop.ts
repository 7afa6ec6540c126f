/**
 * Headers that describe one connection, not the request (RFC 9110 §7.6.1, plus `expect` and
 * HTTP/2's settings): never carried from one connection to another.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'http2-settings',
  'expect',
]);

/** Statuses a `Response` must have no body for. */
export const NULL_BODY_STATUS: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);
