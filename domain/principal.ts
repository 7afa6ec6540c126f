import { Forbidden, InvalidInput } from './errors.js';
import { defined } from './defined.js';

/** Who is calling. Hosts return these from `principal(req)`; Porter mints the reserved ones. */
export interface Principal {
  readonly subject: string;
  readonly kind: string;
  readonly name?: string;
  readonly email?: string;
  /** True for a cookie session that has not signed in yet. */
  readonly anonymous?: boolean;
  /**
   * For an anonymous session: the network its request came from (the client address; an IPv6
   * address's /64), whose sessions share one set of budgets. Absent when the wire did not know it.
   */
  readonly address?: string;
}

/** Subjects in this namespace are minted by Porter only (anonymous sessions, webhooks, door). */
export const RESERVED_SUBJECT_PREFIX = 'porter:';

export class ReservedSubject extends Forbidden {
  constructor() {
    super(`The host resolver returned a subject in the reserved "${RESERVED_SUBJECT_PREFIX}" namespace`);
  }
}

export class OrganizationPrincipal extends Forbidden {
  constructor() {
    super('The host resolver returned a principal of kind "org"; organizations cannot act here');
  }
}

/** The longest subject, name or email Porter keeps for a principal. */
export const PRINCIPAL_TEXT_LIMIT = 512;

/** C0 and C1 control characters and DEL (NUL among them): no subject, name or email carries one. */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A principal whose subject, name or email Porter cannot keep: too long, or with a control
 * character. It usually carries what a caller sent (a demo user's header), so it is the caller's
 * 400, not a host bug.
 */
export class UnacceptablePrincipal extends InvalidInput {
  constructor(field: 'subject' | 'name' | 'email') {
    super(`The signed-in ${field} cannot be used: at most ${PRINCIPAL_TEXT_LIMIT} characters, without control characters`, [
      { path: field, message: `at most ${PRINCIPAL_TEXT_LIMIT} characters, no control characters` },
    ]);
  }
}

/** The fields a host's principal carries. Any other key a resolver returns is ignored. */
export const HOST_PRINCIPAL_FIELDS: ReadonlyArray<string> = ['subject', 'kind', 'name', 'email'];

/** The longest `kind` Porter keeps. */
const KIND_LIMIT = 64;

/**
 * A host's resolver returned something that is no principal (no string subject, a field of the
 * wrong type, not an object). It is the host's bug, not the caller's: a logged 500 on the wire,
 * never shown to the caller, and never taken as the person having gone. Not a DomainError, for
 * the same reason: no caller can do anything about it.
 */
export class HostPrincipalUnusable extends Error {
  constructor(source: string, problem: string) {
    super(`The host's ${source} returned an invalid principal: ${problem}`);
    this.name = 'HostPrincipalUnusable';
  }
}

/** What a resolver returned, read as a principal, and the keys that were left out of it. */
export interface HostPrincipalReading {
  readonly principal: Principal;
  /** Keys of the returned object Porter does not use, sorted (`role`, `id`…): the host may warn about them. */
  readonly ignored: ReadonlyArray<string>;
}

/**
 * Reads what a host's resolver (`principal(req)`, `oauth.principal(subject)`, `oauth.signIn(req)`)
 * returned, so a host may hand over its own user object: `subject` (a non-empty string) is
 * required, `kind` defaults to `user`, `name` and `email` are kept when strings and absent when
 * null; every other key (`role`, `id`, even `anonymous`, which only Porter sets) is ignored and
 * named in `ignored`. Anything else is HostPrincipalUnusable naming the problem, never the value
 * (it may be personal). The wire's rules on the result (reserved subjects, kind `org`, lengths)
 * are admitHostPrincipal's.
 */
export function readHostPrincipal(value: unknown, source: string): HostPrincipalReading {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HostPrincipalUnusable(source, `not an object but ${describe(value)}`);
  const returned = value as Record<string, unknown>;
  const { subject, kind, name, email } = returned;
  if (typeof subject !== 'string' || subject.length === 0)
    throw new HostPrincipalUnusable(source, `subject must be a non-empty string, not ${describe(subject)}`);
  if (kind != null && (typeof kind !== 'string' || kind.length === 0 || kind.length > KIND_LIMIT))
    throw new HostPrincipalUnusable(
      source,
      `kind must be a string of 1 to ${KIND_LIMIT} characters or null, not ${typeof kind === 'string' && kind.length > 0 ? `${kind.length} characters` : describe(kind)}`,
    );
  for (const [field, text] of [
    ['name', name],
    ['email', email],
  ] as const) {
    if (text != null && typeof text !== 'string')
      throw new HostPrincipalUnusable(source, `${field} must be a string or null, not ${describe(text)}`);
  }
  return {
    principal: {
      subject,
      kind: typeof kind === 'string' ? kind : 'user',
      ...defined({ name: typeof name === 'string' ? name : undefined, email: typeof email === 'string' ? email : undefined }),
    },
    ignored: ignoredKeysOf(returned),
  };
}

/** The keys of a host's answer that Porter does not use, sorted; most answers have none (every door request reads one). */
function ignoredKeysOf(returned: Record<string, unknown>): string[] {
  const ignored: string[] = [];
  for (const key of Object.keys(returned)) if (!HOST_PRINCIPAL_FIELDS.includes(key)) ignored.push(key);
  return ignored.length > 1 ? ignored.sort() : ignored;
}

/** What a value is, in words, without saying what it holds. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length === 0 ? 'an empty string' : 'a string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Kind `org` in any letter case (`ORG`, `Org`) or padding is an organization. */
export function isOrganizationKind(kind: unknown): boolean {
  return typeof kind === 'string' && kind.trim().toLowerCase() === 'org';
}

/** The wire's rule for what a host resolver may return. */
export function admitHostPrincipal(principal: Principal): Principal {
  if (principal.subject.startsWith(RESERVED_SUBJECT_PREFIX)) throw new ReservedSubject();
  if (isOrganizationKind(principal.kind)) throw new OrganizationPrincipal();
  for (const field of ['subject', 'name', 'email'] as const) {
    const value = principal[field];
    if (value !== undefined && (value.length > PRINCIPAL_TEXT_LIMIT || CONTROL.test(value))) throw new UnacceptablePrincipal(field);
  }
  return principal;
}

/** An anonymous cookie session, calling from `address` (the client's network) when the wire knows it. */
export function anonymousPrincipal(sessionId: string, address?: string): Principal {
  return {
    subject: `${RESERVED_SUBJECT_PREFIX}anon:${sessionId}`,
    kind: 'anonymous',
    anonymous: true,
    ...defined({ address: address || undefined }),
  };
}

export function isAnonymousSubject(subject: string): boolean {
  return subject.startsWith(`${RESERVED_SUBJECT_PREFIX}anon:`);
}

/** Webhook deliveries run as this subject; audit readers match this prefixed form. */
export function webhookSubject(source: string): string {
  return `${RESERVED_SUBJECT_PREFIX}webhook:${source}`;
}
