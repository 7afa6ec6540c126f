import type { DoorBearer } from '../../domain/door/door-caller.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorBearerVerifier } from '../../ports/door-bearer-verifier.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { TokenFamilyBook } from './token-family-book.js';

/**
 * The local authorization server's consent source: an access token is looked up by digest, and
 * carries what its family says: who consented, through which client, with which evidence. One read:
 * a revoked family's access tokens are deleted, and none outlives its family. A token bound to
 * another resource is refused.
 */
export class LocalBearerVerifier implements DoorBearerVerifier {
  constructor(
    private readonly families: TokenFamilyBook,
    private readonly secrets: DoorSecrets,
    private readonly clock: Clock,
  ) {}

  async verify(token: string, resource: string): Promise<DoorBearer | null> {
    const access = await this.families.findAccessToken(this.secrets.digest(token));
    if (!access || this.clock.now().toISOString() >= access.expiresAt || access.resource !== resource) return null;
    return {
      subject: access.subject,
      clientId: access.clientId,
      scope: access.scope,
      evidence: access.evidence,
      expiresAt: Math.floor(Date.parse(access.expiresAt) / 1000),
    };
  }
}
