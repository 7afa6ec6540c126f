import { aggregateOf } from '../aggregate.js';

/**
 * Replays of the refresh token just rotated out that the grace window forgives per rotation. An MCP
 * client refreshes once per call it has in flight, all with the same refresh token, and on a busy
 * server any of those requests may reach the door after the first one's rotation was stored: each
 * is then a replay, not a race. One per call a client may have in flight; the next one revokes.
 */
export const FORGIVEN_REPLAYS = 8;

export type FamilyRevocation = 'revoked' | 'refresh-token-reused' | 'code-reused' | 'consent-withdrawn';

export interface TokenFamilyPrimitives {
  readonly id: string;
  readonly clientId: string;
  readonly subject: string;
  readonly scope: string;
  readonly resource: string;
  readonly consentId: string;
  readonly evidence: string;
  /**
   * Which refresh token of the family is current. Every rotation moves it on by one; a refresh
   * token from an earlier generation presented again is a reuse.
   */
  readonly generation: number;
  readonly createdAt: string;
  /** When the current generation was minted (the last rotation), or null before any. */
  readonly rotatedAt: string | null;
  /**
   * How many replays of the refresh token just rotated out the grace window accepted since the last
   * rotation (at most FORGIVEN_REPLAYS); every rotation sets it back to 0. Absent on families stored
   * before the window counted more than one: read from `gracedAt` (1 when set, else 0).
   */
  readonly graced?: number;
  /** When the window last forgave a replay since the last rotation, or null (absent reads as null). */
  readonly gracedAt?: string | null;
  /** Absolute end of the family: refreshing never extends it. */
  readonly expiresAt: string;
  readonly revokedAt: string | null;
  readonly revokedBecause: FamilyRevocation | null;
}

/**
 * The tokens descended from one authorization code: refresh tokens rotate, and reuse of a rotated
 * one revokes the whole family (OAuth 2.0 Security BCP, RFC 9700 §4.14.2).
 */
export class TokenFamily extends aggregateOf<TokenFamilyPrimitives>().reading(
  'id',
  'clientId',
  'subject',
  'generation',
  'resource',
  'scope',
  'evidence',
) {
  private constructor(props: TokenFamilyPrimitives) {
    super(props);
  }

  static start(
    props: Omit<TokenFamilyPrimitives, 'generation' | 'rotatedAt' | 'graced' | 'gracedAt' | 'revokedAt' | 'revokedBecause'>,
  ): TokenFamily {
    return new TokenFamily({ ...props, generation: 1, rotatedAt: null, graced: 0, gracedAt: null, revokedAt: null, revokedBecause: null });
  }

  static fromPrimitives(props: TokenFamilyPrimitives): TokenFamily {
    return new TokenFamily(props);
  }

  get revoked(): boolean {
    return this.props.revokedAt !== null;
  }

  isLiveAt(now: string): boolean {
    return !this.revoked && now < this.props.expiresAt;
  }

  /** True when a refresh token of this generation is not the current one any more. */
  isStale(generation: number): boolean {
    return generation < this.props.generation;
  }

  /**
   * A stale token one rotation behind, in a request that was already under way (`requestedAt`) when
   * that rotation was recorded: the client raced itself, and the other request got the new tokens.
   */
  isRaceLoser(generation: number, requestedAt: string): boolean {
    if (generation !== this.props.generation - 1 || !this.props.rotatedAt) return false;
    return requestedAt <= this.props.rotatedAt;
  }

  /**
   * The refresh grace window (RFC 9700 §4.14.2 leaves room for it): a token exactly one rotation
   * behind, in a request that reached the door no later than the window after that rotation
   * (`windowOpenedAt` is the request's arrival minus the window), while the window has forgiven
   * fewer than FORGIVEN_REPLAYS replays since that rotation. Only the token just rotated out
   * qualifies: an older token, or a replay once those are spent, is a replay whatever the window.
   */
  isWithinGrace(generation: number, windowOpenedAt: string): boolean {
    if (generation !== this.props.generation - 1 || !this.props.rotatedAt || this.graceSpent) return false;
    return this.props.rotatedAt >= windowOpenedAt;
  }

  /** Replays of the token just rotated out the window forgave since the last rotation. */
  get graced(): number {
    return this.props.graced ?? ((this.props.gracedAt ?? null) === null ? 0 : 1);
  }

  /** True once the window forgave FORGIVEN_REPLAYS replays of the token just rotated out (until the next rotation). */
  get graceSpent(): boolean {
    return this.graced >= FORGIVEN_REPLAYS;
  }

  rotate(at: string): TokenFamily {
    if (this.revoked) throw new Error('a revoked family does not rotate');
    return this.with({ generation: this.props.generation + 1, rotatedAt: at, graced: 0, gracedAt: null });
  }

  /** Spends one of the window's FORGIVEN_REPLAYS on a replay of the token just rotated out. */
  forgive(at: string): TokenFamily {
    if (this.revoked || this.graceSpent) throw new Error(`the grace window forgives ${FORGIVEN_REPLAYS} replays per rotation`);
    return this.with({ graced: this.graced + 1, gracedAt: at });
  }

  revoke(at: string, because: FamilyRevocation): TokenFamily {
    return this.revoked ? this : this.with({ revokedAt: at, revokedBecause: because });
  }
}
