import { Forbidden, InvalidInput } from './errors.js';

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
  return { subject: `${RESERVED_SUBJECT_PREFIX}anon:${sessionId}`, kind: 'anonymous', anonymous: true, ...(address ? { address } : {}) };
}

export function isAnonymousSubject(subject: string): boolean {
  return subject.startsWith(`${RESERVED_SUBJECT_PREFIX}anon:`);
}

/** Webhook deliveries run as this subject; audit readers match this prefixed form. */
export function webhookSubject(source: string): string {
  return `${RESERVED_SUBJECT_PREFIX}webhook:${source}`;
}
