import { aggregateOf } from '../aggregate.js';

/** What a valid `/authorize` asked for; carried from the consent page to the code. */
export interface AuthorizationAsk {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scope: string;
  readonly state: string | null;
  /** RFC 8707 resource indicator the token will be bound to (the door's own resource URL). */
  readonly resource: string;
}

export interface PendingConsentPrimitives {
  /** SHA-256 of the handle the consent form carries; the handle itself is never kept. */
  readonly id: string;
  readonly ask: AuthorizationAsk;
  /** Who was shown the page: only they can answer it. */
  readonly subject: string;
  readonly expiresAt: string;
}

/** A consent page on screen, waiting for the person's answer. Answered once, by them only. */
export class PendingConsent extends aggregateOf<PendingConsentPrimitives>().reading('ask') {
  private constructor(props: PendingConsentPrimitives) {
    super(props);
  }

  static open(props: PendingConsentPrimitives): PendingConsent {
    return new PendingConsent(props);
  }

  static fromPrimitives(props: PendingConsentPrimitives): PendingConsent {
    return new PendingConsent(props);
  }

  answerableBy(subject: string, now: string): boolean {
    return this.props.subject === subject && now < this.props.expiresAt;
  }
}
