/**
 * Identifier prefixes. An id is a prefix plus a time-ordered random part; the server mints them,
 * a client-supplied id never becomes a new resource's id.
 */
export const ID_PREFIXES = {
  thread: 'thr_',
  /** A file a person attached to a message. */
  file: 'fil_',
  message: 'msg_',
  app: 'app_',
  automation: 'atm_',
  run: 'run_',
  approval: 'apr_',
  grant: 'grt_',
  audit: 'aud_',
  connection: 'con_',
  version: 'ver_',
  /** A memory the agent keeps about a person. */
  memory: 'mem_',
  /** A document a host gave Porter to answer from. */
  document: 'doc_',
  /** A passage of such a document: `psg_<document's random part>-<index>`. */
  passage: 'psg_',
  /** A record of an app's own data, when the client does not name it. */
  record: 'rec_',
  doorClient: 'mcpc_',
  anonymous: 'anon_',
  toolCall: 'call_',
  session: 'ses_',
  /** A turn's hold on its thread (never on the wire). */
  turn: 'trn_',
  /** An instance's mark that it has readers of a turn (never on the wire). */
  reader: 'rdr_',
  /** A batch decision's hold on the approvals it decides (never on the wire). */
  batch: 'bat_',
  /** A run's completion webhook (its `webhook-id`), derived from the run's id. */
  runEvent: 'evt_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

/**
 * The shape of every id of `kind` Porter mints: its prefix and 10 to 64 URL-safe characters (a
 * ULID is 26). A string of another shape cannot name anything of that kind, on any store.
 */
export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}[0-9A-Za-z_-]{10,64}$`);
}

const PATTERNS = new Map<IdKind, RegExp>();

/** True when `id` has the prefix of `kind` and a URL-safe remainder of 10 to 64 characters. */
export function isIdOf(kind: IdKind, id: string): boolean {
  let pattern = PATTERNS.get(kind);
  if (!pattern) PATTERNS.set(kind, (pattern = idPattern(kind)));
  return pattern.test(id);
}
