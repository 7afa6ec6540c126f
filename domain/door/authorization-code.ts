import { aggregateOf } from '../aggregate.js';
import type { AuthorizationAsk } from './authorization-request.js';

export interface AuthorizationCodePrimitives {
  /** SHA-256 of the code; the code itself is never kept. */
  readonly id: string;
  readonly ask: AuthorizationAsk;
  readonly subject: string;
  readonly consentId: string;
  readonly evidence: string;
  readonly issuedAt: string;
  readonly expiresAt: string;
  /** The token family the code was redeemed for; a second redemption revokes it (RFC 6749 §4.1.2). */
  readonly redeemedFor: string | null;
}

/** A one-time authorization code, bound to its client, redirect URI and PKCE challenge. */
export class AuthorizationCode extends aggregateOf<AuthorizationCodePrimitives>().reading('ask', 'subject', 'redeemedFor') {
  private constructor(props: AuthorizationCodePrimitives) {
    super(props);
  }

  static issue(props: Omit<AuthorizationCodePrimitives, 'redeemedFor'>): AuthorizationCode {
    return new AuthorizationCode({ ...props, redeemedFor: null });
  }

  static fromPrimitives(props: AuthorizationCodePrimitives): AuthorizationCode {
    return new AuthorizationCode(props);
  }

  isExpiredAt(now: string): boolean {
    return now >= this.props.expiresAt;
  }

  redeem(familyId: string): AuthorizationCode {
    if (this.props.redeemedFor) throw new Error('an authorization code is redeemed once');
    return this.with({ redeemedFor: familyId });
  }
}
