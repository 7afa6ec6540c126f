import { Forbidden } from './errors.js';

/** Who is calling. Hosts return these from `principal(req)`; Porter mints the reserved ones. */
export interface Principal {
  readonly subject: string;
  readonly kind: string;
  readonly name?: string;
  readonly email?: string;
  /** True for a cookie session that has not signed in yet. */
  readonly anonymous?: boolean;
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

/** The wire's rule for what a host resolver may return. */
export function admitHostPrincipal(principal: Principal): Principal {
  if (principal.subject.startsWith(RESERVED_SUBJECT_PREFIX)) throw new ReservedSubject();
  if (principal.kind === 'org') throw new OrganizationPrincipal();
  return principal;
}

export function anonymousPrincipal(sessionId: string): Principal {
  return { subject: `${RESERVED_SUBJECT_PREFIX}anon:${sessionId}`, kind: 'anonymous', anonymous: true };
}

export function isAnonymousSubject(subject: string): boolean {
  return subject.startsWith(`${RESERVED_SUBJECT_PREFIX}anon:`);
}

/** Webhook deliveries run as this subject; audit readers match this prefixed form. */
export function webhookSubject(source: string): string {
  return `${RESERVED_SUBJECT_PREFIX}webhook:${source}`;
}
