import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { UseCase } from '../../ports/use-case.js';
import type { RevocationRequest } from '../../ports/use-cases/door.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { authenticateClient } from './client-authentication.js';
import type { DoorClientLookup } from './door-clients.js';
import type { TokenFamilyBook } from './token-family-book.js';

/** What RevokeToken is built from. */
export interface RevokeTokenDeps {
  readonly clients: DoorClientLookup;
  readonly families: TokenFamilyBook;
  readonly secrets: DoorSecrets;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/**
 * `POST {wire}/mcp/revoke` (RFC 7009). Revoking a refresh token revokes its whole family; revoking
 * an access token drops that token. A token that does not exist (any more) is revoked already, so
 * that lands too. A store without atomic claims cannot promise a revocation beats a racing
 * rotation, so there the request is refused rather than half done.
 */
export class RevokeToken implements UseCase<RevocationRequest, void> {
  constructor(private readonly deps: RevokeTokenDeps) {}

  async execute(request: RevocationRequest): Promise<void> {
    if (!request.token) throw new OAuthRefusal('invalid_request', 'token is required');
    if (!request.client.clientId) throw new OAuthRefusal('invalid_request', 'client_id is required');
    const client = await authenticateClient(this.deps.clients, this.deps.secrets, request.client, 400);
    if (!this.deps.families.atomic) {
      throw new OAuthRefusal(
        'temporarily_unavailable',
        "This deployment's store lacks atomic claims, so tokens cannot be revoked safely here",
      );
    }

    const digest = this.deps.secrets.digest(request.token);
    const order = request.tokenTypeHint === 'refresh_token' ? (['refresh', 'access'] as const) : (['access', 'refresh'] as const);
    for (const kind of order) {
      const familyId =
        kind === 'access'
          ? (await this.deps.families.findAccessToken(digest))?.familyId
          : (await this.deps.families.findRefreshToken(digest))?.familyId;
      if (!familyId) continue;
      const loaded = await this.deps.families.find(familyId);
      if (!loaded) return;
      if (loaded.family.clientId !== client.id)
        throw new OAuthRefusal('unauthorized_client', 'This token was issued to a different client');
      if (kind === 'access') await this.deps.families.dropAccessToken(digest);
      else await this.deps.families.revoke(familyId, this.deps.clock.now().toISOString(), 'revoked');
      await this.deps.audit.record({
        subject: loaded.family.subject,
        action: 'door.token-revoked',
        outcome: 'ok',
        details: { clientId: client.id, kind },
      });
      return;
    }
  }
}
