/**
 * Identifier prefixes. An id is a prefix plus a time-ordered random part; the server mints them,
 * a client-supplied id never becomes a new resource's id.
 */
export const ID_PREFIXES = {
  thread: 'thr_',
  message: 'msg_',
  app: 'app_',
  automation: 'atm_',
  run: 'run_',
  approval: 'apr_',
  grant: 'grt_',
  audit: 'aud_',
  connection: 'con_',
  version: 'ver_',
  /** A record of an app's own data, when the client does not name it. */
  record: 'rec_',
  doorClient: 'mcpc_',
  anonymous: 'anon_',
  toolCall: 'call_',
  session: 'ses_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

/** True when `id` has the prefix of `kind` and a non-empty, URL-safe remainder. */
export function isIdOf(kind: IdKind, id: string): boolean {
  const prefix = ID_PREFIXES[kind];
  return id.startsWith(prefix) && /^[0-9A-Za-z_-]{10,64}$/.test(id.slice(prefix.length));
}
