import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import { FORGIVEN_REPLAYS } from '../../domain/door/token-family.js';
import { namesTheDoor } from '../../domain/door/resource-indicator.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TokenGrant, TokenRequest } from '../../ports/use-cases/door.js';
import { authenticateClient } from './client-authentication.js';
import type { TokenGrantDeps } from './issue-tokens.js';

type RefreshRequest = Extract<TokenRequest, { grantType: 'refresh_token' }>;

const INVALID = 'The refresh token is not valid';

/**
 * Swaps lost to concurrent requests before giving up. Each loss is another request changing the
 * family: a rotation, or one of at most FORGIVEN_REPLAYS replays forgiven per rotation. A request
 * can lose to the replays forgiven before a rotation, to that rotation and to those forgiven after
 * it; one more look then decides. So a replay under the cap is answered, not refused for losing.
 */
const MAX_ATTEMPTS = 2 * (FORGIVEN_REPLAYS + 1) + 1;

/** What RotateRefreshToken is built from. */
export type RotateRefreshTokenDeps = TokenGrantDeps;

/**
 * `grant_type=refresh_token`: every refresh rotates. The rotation claims the family on the revision
 * read, so of racing refreshes exactly one rotates; the others find their token one rotation behind.
 *
 * The grace window (`refreshGraceSeconds`) forgives a race, not a thief. A request with the token
 * just rotated out that was already under way when the rotation landed raced it (an MCP client's
 * parallel calls all refreshing as the access token lapses): it gets a fresh pair of the family's
 * current generation. A replay, arriving after the rotation, by the same client within the window,
 * is forgiven up to FORGIVEN_REPLAYS times per rotation (under load any of a client's parallel
 * refreshes may arrive after the rotation): each acceptance is claimed on the family's revision,
 * so of racing replays at most that many get one. Any other replay (one once those are spent, one
 * outside the window, an older token, another client) revokes the whole family (RFC 9700
 * §4.14.2). With the window at 0, a racer is refused without revoking anything, and every replay
 * revokes. Instances compare their own clocks here, so keep them synchronised (NTP); skew only
 * moves the line by its size.
 */
export class RotateRefreshToken implements UseCase<RefreshRequest, TokenGrant> {
  constructor(private readonly deps: RotateRefreshTokenDeps) {}

  async execute(request: RefreshRequest): Promise<TokenGrant> {
    // When this request arrived: a rotation recorded after it was a concurrent request, not a replay.
    const requestedAt = request.requestedAt ?? this.deps.clock.now().toISOString();
    const graceMs = this.deps.settings.refreshGraceSeconds * 1000;
    const windowOpenedAt = new Date(Date.parse(requestedAt) - graceMs).toISOString();
    const client = await authenticateClient(this.deps.clients, this.deps.secrets, request.client, 401);
    if (!request.refreshToken) throw new OAuthRefusal('invalid_request', 'refresh_token is required');
    const token = await this.deps.families.findRefreshToken(this.deps.secrets.digest(request.refreshToken));
    if (!token) throw new OAuthRefusal('invalid_grant', INVALID);

    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const loaded = await this.deps.families.find(token.familyId);
      if (!loaded) throw new OAuthRefusal('invalid_grant', INVALID);
      const { family } = loaded;
      const now = this.deps.clock.now().toISOString();

      if (family.clientId !== client.id) {
        // Another client holding this family's token: it leaked. Nothing descended from it stays valid.
        await this.revoke(family.id, family.subject, now, 'presented by another client');
        throw new OAuthRefusal('invalid_grant', INVALID);
      }
      if (!family.isLiveAt(now)) throw new OAuthRefusal('invalid_grant', 'The refresh token has expired or was revoked');
      const stale = family.isStale(token.generation);
      // Under way when the rotation landed: the client racing itself, not a replay.
      const raced = stale && family.isRaceLoser(token.generation, requestedAt);
      const forgivable = stale && !raced && graceMs > 0 && family.isWithinGrace(token.generation, windowOpenedAt);
      const forgiven = raced ? graceMs > 0 : forgivable;
      if (stale && !forgiven) {
        if (raced) throw new OAuthRefusal('invalid_grant', 'This refresh token was just used by another request');
        await this.revoke(
          family.id,
          family.subject,
          now,
          family.graceSpent ? 'replayed inside the grace window once its forgiveness was spent' : 'reused',
        );
        throw new OAuthRefusal('invalid_grant', 'The refresh token was already used; every token of this authorization is revoked');
      }
      if (request.resource !== undefined && !namesTheDoor(request.resource, family.resource))
        throw new OAuthRefusal('invalid_target', `resource must be ${family.resource}`);

      if (stale) {
        // Each replay after the rotation the window forgives is claimed on the revision read, so of
        // replays racing each other at most the count left are. A racer needs no claim: nothing changes.
        if (forgivable && !(await this.deps.families.swap(loaded, family.forgive(now)))) continue;
        await this.deps.audit.record({
          subject: family.subject,
          action: 'door.refresh-graced',
          outcome: 'ok',
          details: {
            clientId: client.id,
            as: raced ? 'racing the rotation' : `replay ${family.graced + 1} of ${FORGIVEN_REPLAYS} forgiven`,
          },
        });
        // Tokens of the current generation, beside the ones the rotation gave.
        return this.deps.mint.mint(family);
      }
      // Stamped as late as possible, just before the claim, so a request that arrives after this
      // rotation is answered can never pass for one that raced it.
      const rotated = family.rotate(this.deps.clock.now().toISOString());
      if (await this.deps.families.swap(loaded, rotated)) return this.deps.mint.mint(rotated);
      // Another request rotated the family first: look again (this token is now one behind).
    }
    throw new OAuthRefusal('invalid_grant', 'This refresh token was just used by another request');
  }

  private async revoke(familyId: string, subject: string, at: string, why: string): Promise<void> {
    await this.deps.families.revoke(familyId, at, 'refresh-token-reused');
    await this.deps.audit.record({ subject, action: 'door.refresh-token-reused', outcome: 'family-revoked', details: { why } });
  }
}
