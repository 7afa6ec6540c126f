import { aggregateOf } from '../aggregate.js';
import type { CallingAutomation, RuledCall } from './tool-call.js';

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

/**
 * Whose calls, among the subject's, a grant may cover. `anywhere`: any venue the rest of the grant
 * allows (its session, its door consent). `automation`: only calls made by a run of that one
 * automation, never a chat, an app, the door or another automation. `name` is the automation's
 * name when the grant was made, for people to read; the id is what is matched.
 */
export type GrantReach = { readonly kind: 'anywhere' } | ({ readonly kind: 'automation' } & CallingAutomation);

export const ANYWHERE: GrantReach = { kind: 'anywhere' };

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
  readonly appliesTo: GrantReach;
  readonly origin: GrantOrigin;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** A grant as stored: rows written before `appliesTo` existed lack it. */
export type StoredGrant = Omit<GrantPrimitives, 'appliesTo'> & { readonly appliesTo?: GrantReach };

/**
 * What a stored row covers. A row without `appliesTo` is read as it was meant: a grant an
 * automation's arming ask made applies to that automation only (what the person was asked), any
 * other grant anywhere.
 */
export function reachOf(stored: StoredGrant): GrantReach {
  if (stored.appliesTo) return stored.appliesTo;
  return stored.origin.kind === 'automation' ? { kind: 'automation', automationId: stored.origin.automationId } : ANYWHERE;
}

/** A remembered yes: lets matching calls run without asking again, until revoked. */
export class Grant extends aggregateOf<GrantPrimitives>().reading('id', 'subject', 'tool', 'appliesTo') {
  private constructor(props: GrantPrimitives) {
    super(props);
  }

  static create(props: Omit<GrantPrimitives, 'revokedAt' | 'appliesTo'> & { readonly appliesTo?: GrantReach }): Grant {
    if (props.scope === 'exact' && !props.inputDigest) throw new Error('an exact grant needs the input digest it covers');
    if (props.duration === 'session' && !props.session) throw new Error('a session grant needs its session');
    return new Grant({ ...props, appliesTo: props.appliesTo ?? ANYWHERE, revokedAt: null });
  }

  static fromPrimitives(stored: StoredGrant): Grant {
    return new Grant({ ...stored, appliesTo: reachOf(stored) });
  }

  get active(): boolean {
    return this.props.revokedAt === null;
  }

  /**
   * Covers the call when it is active, the call is the grant subject's own, the tool (and for
   * exact scope the input) match, the call comes from where the grant applies (for an automation's
   * grant: a run of that automation), the session matches for session grants, and the consent
   * evidence matches. A call made while the person is away uses standing grants only.
   */
  covers(call: RuledCall): boolean {
    const p = this.props;
    if (!this.active || p.subject !== call.principal.subject || p.tool !== call.tool) return false;
    if (!this.reaches(call)) return false;
    if (p.scope === 'exact' && p.inputDigest !== call.inputDigest) return false;
    if (p.duration === 'session' && (call.presence === 'away' || p.session !== call.session)) return false;
    return p.evidence === (call.evidence ?? null);
  }

  /** Whether it belongs to this automation: it dies with it (deleted or disarmed). */
  isFor(automationId: string): boolean {
    return this.props.appliesTo.kind === 'automation' && this.props.appliesTo.automationId === automationId;
  }

  /**
   * Whether it already lets every away call of its tool by this automation's runs through, so
   * arming need not ask: an active standing grant of the whole tool, made outside the door, that
   * applies anywhere or to this automation.
   */
  standsFor(automationId: string): boolean {
    const p = this.props;
    return (
      this.active &&
      p.duration === 'standing' &&
      p.scope === 'tool' &&
      p.evidence === null &&
      (p.appliesTo.kind === 'anywhere' || this.isFor(automationId))
    );
  }

  revoke(at: string): Grant {
    return this.active ? this.with({ revokedAt: at }) : this;
  }

  /** Undoes a revoke within its undo window: the grant covers what it covered before. */
  restore(): Grant {
    return this.active ? this : this.with({ revokedAt: null });
  }

  private reaches(call: RuledCall): boolean {
    const reach = this.props.appliesTo;
    if (reach.kind === 'anywhere') return true;
    return call.venue === 'automation' && call.automation?.automationId === reach.automationId;
  }
}
