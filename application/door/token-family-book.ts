import { FORGIVEN_REPLAYS, TokenFamily, type FamilyRevocation, type TokenFamilyPrimitives } from '../../domain/door/token-family.js';
import type { RecordSet, Store } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { CONFLICT_ATTEMPTS, LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import { tokenFamilyShape } from './stored-shapes.js';

/** A refresh token, by digest: which family and generation it belongs to. Never changes once written. */
export interface RefreshTokenPrimitives {
  readonly familyId: string;
  readonly generation: number;
}

/**
 * An access token, by digest, carrying what its family says about the caller, so checking a bearer
 * is one read. It never outlives its family: its expiry is capped at the family's end, and revoking
 * the family deletes it (see `revoke` and TokenMint's re-check).
 */
export interface AccessTokenPrimitives {
  readonly familyId: string;
  readonly subject: string;
  readonly clientId: string;
  readonly scope: string;
  readonly resource: string;
  readonly evidence: string;
  readonly expiresAt: string;
}

export type LoadedFamily = Loaded<'family', TokenFamily, TokenFamilyPrimitives>;

/** Bound on the recently-read access tokens kept in memory. */
const MAX_CACHED_TOKENS = 10_000;

/**
 * Token families and their tokens. Only digests of tokens are ids here. The family record is the
 * one place rotation and revocation meet: both swap it on the revision they read, so a rotation
 * racing a revocation either lands first (and is then revoked) or loses. A revocation claims the
 * family first and deletes its access tokens after; a mint writes its access token first and
 * re-reads the family after, so whichever runs second removes the token.
 */
export class TokenFamilyBook extends AggregateBook<'family', TokenFamily, TokenFamilyPrimitives> {
  private readonly refreshTokens: RecordSet<RefreshTokenPrimitives>;
  private readonly accessTokens: RecordSet<AccessTokenPrimitives>;
  /**
   * Access tokens this process read recently, so a busy door session checks its bearer without a
   * store read on every request. Revocations here evict at once; a revocation on another instance
   * reaches this one within `cacheMs`. 0 reads the store every time.
   */
  private readonly recentlyRead = new Map<string, { token: AccessTokenPrimitives; until: number }>();

  constructor(
    store: Store,
    private readonly cacheMs = 0,
    // A cache's lifetime is a duration: a monotonic timer, which a wall clock's jump cannot stretch.
    private readonly now: () => number = () => performance.now(),
  ) {
    super(store.records<TokenFamilyPrimitives>('door-token-families'), {
      collection: 'door-token-families',
      key: 'family',
      noun: 'Token family',
      schema: tokenFamilyShape,
      ...asPrimitives(TokenFamily),
      refsOf: (props) => ({ subject: props.subject, client: props.clientId, state: props.revokedAt ? 'revoked' : 'active' }),
      ownerOf: (family) => family.toPrimitives().subject,
    });
    this.refreshTokens = store.records('door-refresh-tokens');
    this.accessTokens = store.records('door-access-tokens');
  }

  /** False on a store without compare-and-swap: callers then fail closed. */
  get atomic(): boolean {
    return Boolean(this.records.atomic);
  }

  /** Revokes the family whatever else is writing it, then drops its access tokens. */
  async revoke(familyId: string, at: string, because: FamilyRevocation): Promise<void> {
    await retryOnConflict(
      async () => {
        const loaded = await this.find(familyId);
        if (!loaded || loaded.family.revoked) return;
        return (await this.swap(loaded, loaded.family.revoke(at, because))) ? undefined : LOST_RACE;
      },
      {
        // Besides rotations, each replay the grace window forgives changes the family.
        attempts: CONFLICT_ATTEMPTS + FORGIVEN_REPLAYS,
        exhausted: () => {
          throw new Error('a token family kept changing while it was being revoked');
        },
      },
    );
    await this.dropAccessTokensOf(familyId);
  }

  async addRefreshToken(digest: string, token: RefreshTokenPrimitives): Promise<void> {
    await this.refreshTokens.put({ id: digest, data: token, refs: { family: token.familyId } });
  }

  async findRefreshToken(digest: string): Promise<RefreshTokenPrimitives | null> {
    return (await this.refreshTokens.get(digest))?.data ?? null;
  }

  async addAccessToken(digest: string, token: AccessTokenPrimitives): Promise<void> {
    await this.accessTokens.put({ id: digest, data: token, refs: { family: token.familyId } });
  }

  async findAccessToken(digest: string): Promise<AccessTokenPrimitives | null> {
    const now = this.now();
    const cached = this.recentlyRead.get(digest);
    if (cached && cached.until > now) return cached.token;
    const token = (await this.accessTokens.get(digest))?.data ?? null;
    if (token && this.cacheMs > 0) {
      if (this.recentlyRead.size >= MAX_CACHED_TOKENS) this.forgetStale(now);
      this.recentlyRead.set(digest, { token, until: now + this.cacheMs });
    }
    return token;
  }

  async dropAccessToken(digest: string): Promise<void> {
    this.recentlyRead.delete(digest);
    await this.accessTokens.delete(digest);
  }

  private forgetStale(now: number): void {
    for (const [digest, entry] of this.recentlyRead) if (entry.until <= now) this.recentlyRead.delete(digest);
    if (this.recentlyRead.size >= MAX_CACHED_TOKENS) this.recentlyRead.clear();
  }

  private async dropAccessTokensOf(familyId: string): Promise<void> {
    for (;;) {
      const page = await this.accessTokens.list({ refs: { family: familyId }, limit: 500 });
      for (const record of page.items) {
        this.recentlyRead.delete(record.id);
        await this.accessTokens.delete(record.id);
      }
      if (!page.nextCursor) return;
    }
  }
}
