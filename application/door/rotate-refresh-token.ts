import { grantedScope } from '../../domain/door/door-scope.js';
import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TokenGrant, TokenRequest } from '../../ports/use-cases/door.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { authenticateClient } from './client-authentication.js';
import type { DoorClientBook } from './client-book.js';
import type { TokenFamilyBook } from './token-family-book.js';
import type { TokenMint } from './token-mint.js';

type RefreshRequest = Extract<TokenRequest, { grantType: 'refresh_token' }>;

const INVALID = 'The refresh token is not valid';

/** What RotateRefreshToken is built from. */
export interface RotateRefreshTokenDeps {
  readonly clients: DoorClientBook;
  readonly families: TokenFamilyBook;
  readonly mint: TokenMint;
  readonly secrets: DoorSecrets;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/**
 * `grant_type=refresh_token`: every refresh rotates. The rotation claims the family on the revision
 * read, so two racing refreshes give exactly one success, and the loser (already under way when
 * the winner rotated) revokes nothing. A token from an earlier generation presented in a request
 * that arrived after the rotation is a replay: the whole family is revoked. Instances compare their
 * own clocks here, so keep them synchronised (NTP); skew only moves the line by its size.
 */
export class RotateRefreshToken implements UseCase<RefreshRequest, TokenGrant> {
  private readonly clients: DoorClientBook;
  private readonly families: TokenFamilyBook;
  private readonly mint: TokenMint;
  private readonly secrets: DoorSecrets;
  private readonly clock: Clock;
  private readonly audit: AuditTrail;

  constructor(deps: RotateRefreshTokenDeps) {
    this.clients = deps.clients;
    this.families = deps.families;
    this.mint = deps.mint;
    this.secrets = deps.secrets;
    this.clock = deps.clock;
    this.audit = deps.audit;
  }

  async execute(request: RefreshRequest): Promise<TokenGrant> {
    // When this request arrived: a rotation recorded after it was a concurrent request, not a replay.
    const requestedAt = request.requestedAt ?? this.clock.now().toISOString();
    const client = await authenticateClient(this.clients, this.secrets, request.client, 401);
    if (!request.refreshToken) throw new OAuthRefusal('invalid_request', 'refresh_token is required');
    const token = await this.families.findRefreshToken(this.secrets.digest(request.refreshToken));
    const loaded = token ? await this.families.find(token.familyId) : null;
    if (!token || !loaded) throw new OAuthRefusal('invalid_grant', INVALID);
    const { family } = loaded;
    const now = this.clock.now().toISOString();

    if (family.clientId !== client.id) {
      // Another client holding this family's token: it leaked. Nothing descended from it stays valid.
      await this.revoke(family.id, family.subject, now, 'presented by another client');
      throw new OAuthRefusal('invalid_grant', INVALID);
    }
    if (!family.isLiveAt(now)) throw new OAuthRefusal('invalid_grant', 'The refresh token has expired or was revoked');
    if (family.isStale(token.generation)) {
      if (family.isRaceLoser(token.generation, requestedAt)) {
        throw new OAuthRefusal('invalid_grant', 'This refresh token was just used by another request');
      }
      await this.revoke(family.id, family.subject, now, 'reused');
      throw new OAuthRefusal('invalid_grant', 'The refresh token was already used; every token of this authorization is revoked');
    }
    if (request.scope !== undefined && grantedScope(request.scope) !== family.scope)
      throw new OAuthRefusal('invalid_scope', `The granted scope is "${family.scope}"`);
    if (request.resource !== undefined && request.resource !== family.resource)
      throw new OAuthRefusal('invalid_target', `resource must be ${family.resource}`);

    // Stamped as late as possible, just before the claim, so a request that arrives after this
    // rotation is answered can never pass for one that raced it.
    const rotated = family.rotate(this.clock.now().toISOString());
    if (!(await this.families.swap(loaded, rotated)))
      throw new OAuthRefusal('invalid_grant', 'This refresh token was just used by another request');
    return this.mint.mint(rotated);
  }

  private async revoke(familyId: string, subject: string, at: string, why: string): Promise<void> {
    await this.families.revoke(familyId, at, 'refresh-token-reused');
    await this.audit.record({ subject, action: 'door.refresh-token-reused', outcome: 'family-revoked', details: { why } });
  }
}
