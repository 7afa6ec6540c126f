import type { DoorBearer } from '../../domain/door/door-caller.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorBearerVerifier } from '../../ports/door-bearer-verifier.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { AccessTokenPrimitives, TokenFamilyBook } from './token-family-book.js';

/**
 * The local authorization server's consent source: an access token is looked up by digest, and
 * carries what its family says: who consented, through which client, with which evidence. One read:
 * a revoked family's access tokens are deleted, and none outlives its family. A token bound to
 * another resource is refused.
 */
export class LocalBearerVerifier implements DoorBearerVerifier {
  /**
   * What a token record says, worked out once per record read: the book hands back the record it
   * keeps while it trusts it (`oauth.tokenCacheMs`), so a run of requests parses its expiry once.
   */
  private readonly read = new WeakMap<AccessTokenPrimitives, { readonly bearer: DoorBearer; readonly expiresAtMs: number }>();

  constructor(
    private readonly families: TokenFamilyBook,
    private readonly secrets: DoorSecrets,
    private readonly clock: Clock,
  ) {}

  async verify(token: string, resource: string): Promise<DoorBearer | null> {
    const access = await this.families.findAccessToken(this.secrets.digest(token));
    if (!access || access.resource !== resource) return null;
    let known = this.read.get(access);
    if (!known) {
      const expiresAtMs = Date.parse(access.expiresAt);
      known = {
        bearer: {
          subject: access.subject,
          clientId: access.clientId,
          scope: access.scope,
          evidence: access.evidence,
          expiresAt: Math.floor(expiresAtMs / 1000),
        },
        expiresAtMs,
      };
      this.read.set(access, known);
    }
    // At or past its expiry the token is expired; an expiry that does not parse (NaN) fails closed.
    return this.clock.now().getTime() < known.expiresAtMs ? known.bearer : null;
  }
}
