import { OAuthRefusal } from '../../domain/door/oauth-refusal.js';
import type { TokenFamily } from '../../domain/door/token-family.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { TokenGrant } from '../../ports/use-cases/door.js';
import type { DoorSettings } from './door-settings.js';
import type { TokenFamilyBook } from './token-family-book.js';

/** Mints the access and refresh tokens of a family's current generation; only their digests are kept. */
export class TokenMint {
  constructor(
    private readonly families: TokenFamilyBook,
    private readonly secrets: DoorSecrets,
    private readonly settings: DoorSettings,
    private readonly clock: Clock,
  ) {}

  async mint(family: TokenFamily): Promise<TokenGrant> {
    const accessToken = this.secrets.mint();
    const refreshToken = this.secrets.mint();
    const props = family.toPrimitives();
    const now = this.clock.now().getTime();
    const expiresAt = new Date(Math.min(now + this.settings.accessTokenTtlSeconds * 1000, Date.parse(props.expiresAt))).toISOString();
    const accessDigest = this.secrets.digest(accessToken);
    await this.families.addRefreshToken(this.secrets.digest(refreshToken), { familyId: family.id, generation: family.generation });
    await this.families.addAccessToken(accessDigest, {
      familyId: family.id,
      subject: props.subject,
      clientId: props.clientId,
      scope: props.scope,
      resource: props.resource,
      evidence: props.evidence,
      expiresAt,
    });
    // A revocation that claimed the family before this token was written did not see it: drop it.
    const current = await this.families.find(family.id);
    if (!current || current.family.revoked) {
      await this.families.dropAccessToken(accessDigest);
      throw new OAuthRefusal('invalid_grant', 'This authorization was revoked');
    }
    return {
      accessToken,
      tokenType: 'Bearer',
      expiresIn: Math.round((Date.parse(expiresAt) - now) / 1000),
      refreshToken,
      scope: family.scope,
    };
  }
}
