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
export class AuthorizationCode {
  private constructor(private readonly props: AuthorizationCodePrimitives) {}

  static issue(props: Omit<AuthorizationCodePrimitives, 'redeemedFor'>): AuthorizationCode {
    return new AuthorizationCode({ ...props, redeemedFor: null });
  }

  static fromPrimitives(props: AuthorizationCodePrimitives): AuthorizationCode {
    return new AuthorizationCode(props);
  }

  toPrimitives(): AuthorizationCodePrimitives {
    return this.props;
  }

  get ask(): AuthorizationAsk {
    return this.props.ask;
  }

  get subject(): string {
    return this.props.subject;
  }

  get redeemedFor(): string | null {
    return this.props.redeemedFor;
  }

  isExpiredAt(now: string): boolean {
    return now >= this.props.expiresAt;
  }

  redeem(familyId: string): AuthorizationCode {
    if (this.props.redeemedFor) throw new Error('an authorization code is redeemed once');
    return new AuthorizationCode({ ...this.props, redeemedFor: familyId });
  }
}
