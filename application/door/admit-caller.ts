import { admitHostPrincipal, type Principal } from '../../domain/principal.js';
import type { DoorBearerVerifier } from '../../ports/door-bearer-verifier.js';
import type { DoorPrincipalLookup } from '../../ports/door-principals.js';
import type { UseCase } from '../../ports/use-case.js';
import type { Admission, DoorSite } from '../../ports/use-cases/door.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { DoorSessionRegistry } from '../../ports/door-sessions.js';

/**
 * Every bearer-authenticated transport request: the token must verify, and the host must still
 * resolve its subject (`oauth.principal(subject)`). When the host answers null, every live session
 * of that subject is closed at once and the request is refused.
 */
export class AdmitCaller implements UseCase<{ token: string | null; site: DoorSite }, Admission> {
  constructor(
    private readonly verifier: DoorBearerVerifier,
    private readonly principalOf: DoorPrincipalLookup,
    private readonly sessions: DoorSessionRegistry,
    private readonly audit: AuditTrail,
  ) {}

  async execute({ token, site }: { token: string | null; site: DoorSite }): Promise<Admission> {
    if (!token) return { ok: false, reason: 'missing' };
    const bearer = await this.verifier.verify(token, site.resource);
    if (!bearer) return { ok: false, reason: 'invalid' };
    const principal = await this.resolve(bearer.subject);
    if (!principal) {
      const closed = await this.sessions.revokeSubject(bearer.subject);
      await this.audit.record({
        subject: bearer.subject,
        action: 'door.subject-gone',
        outcome: 'sessions-revoked',
        details: { sessions: closed },
      });
      return { ok: false, reason: 'gone' };
    }
    return { ok: true, caller: { ...bearer, principal } };
  }

  /**
   * The host's answer, admitted like the wire's `principal(req)`: a reserved or org principal, or
   * another subject, counts as gone. The lookup has read it already (its unknown keys dropped; an
   * answer that is no principal is the host's bug, HostPrincipalUnusable, a logged 500 that closes
   * no session), so it is not read twice.
   */
  private async resolve(subject: string): Promise<Principal | null> {
    const principal = await this.principalOf(subject);
    if (!principal) return null;
    try {
      admitHostPrincipal(principal);
    } catch {
      return null;
    }
    return principal.subject === subject ? principal : null;
  }
}
