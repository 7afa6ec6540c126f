import type { RuledCall } from './tool-call.js';

export type GrantScope = 'tool' | 'exact';
export type GrantDuration = 'session' | 'standing';

/** What the person asked to be remembered when approving. */
export interface Remember {
  readonly scope: GrantScope;
  readonly duration: GrantDuration;
}

export type GrantOrigin =
  | { readonly kind: 'approval'; readonly approvalId: string }
  | { readonly kind: 'automation'; readonly automationId: string; readonly approvalId: string };

export interface GrantPrimitives {
  readonly id: string;
  /** Whose calls this grant covers; it never covers anyone else's. */
  readonly subject: string;
  readonly tool: string;
  readonly scope: GrantScope;
  /** For `exact` scope: the digest of the one input it covers. */
  readonly inputDigest: string | null;
  readonly duration: GrantDuration;
  /** For `session` duration: the conversation or door session it lives in. */
  readonly session: string | null;
  /** Door consent evidence; a grant made through the door covers only calls carrying the same. */
  readonly evidence: string | null;
  readonly origin: GrantOrigin;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** A remembered yes: lets matching calls run without asking again, until revoked. */
export class Grant {
  private constructor(private readonly props: GrantPrimitives) {}

  static create(props: Omit<GrantPrimitives, 'revokedAt'>): Grant {
    if (props.scope === 'exact' && !props.inputDigest) throw new Error('an exact grant needs the input digest it covers');
    if (props.duration === 'session' && !props.session) throw new Error('a session grant needs its session');
    return new Grant({ ...props, revokedAt: null });
  }

  static fromPrimitives(props: GrantPrimitives): Grant {
    return new Grant(props);
  }

  toPrimitives(): GrantPrimitives {
    return this.props;
  }

  get id(): string {
    return this.props.id;
  }

  get subject(): string {
    return this.props.subject;
  }

  get active(): boolean {
    return this.props.revokedAt === null;
  }

  /**
   * Covers the call when it is active, the call is the grant subject's own, the tool (and for
   * exact scope the input) match, the session matches for session grants, and the consent
   * evidence matches. A call made while the person is away uses standing grants only.
   */
  covers(call: RuledCall): boolean {
    const p = this.props;
    if (!this.active || p.subject !== call.principal.subject || p.tool !== call.tool) return false;
    if (p.scope === 'exact' && p.inputDigest !== call.inputDigest) return false;
    if (p.duration === 'session' && (call.presence === 'away' || p.session !== call.session)) return false;
    return p.evidence === (call.evidence ?? null);
  }

  revoke(at: string): Grant {
    return this.active ? new Grant({ ...this.props, revokedAt: at }) : this;
  }
}
