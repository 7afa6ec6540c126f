import { aggregateOf } from '../aggregate.js';
import { Conflict } from '../errors.js';
import type { GrantReach, Remember } from './grant.js';
import type { Presence, Risk, Venue } from './risk.js';
import { threadAndRun, type RuledCall } from './tool-call.js';
import { defined } from '../defined.js';

/**
 * `executing` is internal: on the wire it reads as `pending` without `request` (the resume
 * window), and a client keeps polling until it reads `executed`.
 */
export type ApprovalState = 'pending' | 'approved' | 'denied' | 'expired' | 'executing' | 'executed';
export type WireApprovalState = 'pending' | 'approved' | 'denied' | 'expired' | 'executed';

/** What was asked: enough for a person to decide and for the executor to run it. */
export interface ApprovalRequest {
  readonly toolCallId: string;
  readonly tool: string;
  readonly input: unknown;
  readonly risk: Risk;
  readonly egress: boolean;
  /** One line a person can read: what the call will do. */
  readonly preview: string;
  readonly venue: Venue;
  /** Whether the person was there when the call was made; an approved call runs the same way. */
  readonly presence: Presence;
  readonly session: string;
  readonly threadId?: string;
  readonly runId?: string;
  /** For an automation's standing-grant ask (arming), or a call made by one of its runs. */
  readonly automationId?: string;
  /**
   * For an approval an automation raised: a grant it leaves behind (the standing grant an arming
   * ask asks for, or a remembered yes) covers only that automation's runs. Absent: anywhere.
   */
  readonly appliesTo?: GrantReach;
  /** For app edits: the content the person approved against; a rebase invalidates it. */
  readonly appId?: string;
  readonly contentHash?: string;
}

export type ApprovalOutcome =
  | { readonly kind: 'executed'; readonly ok: true; readonly output: unknown }
  | { readonly kind: 'executed'; readonly ok: false; readonly error: string }
  | { readonly kind: 'denied' }
  | { readonly kind: 'expired'; readonly reason: 'timeout' | 'dropped' | 'invalidated' };

export interface ApprovalPrimitives {
  readonly id: string;
  readonly subject: string;
  readonly state: ApprovalState;
  readonly request: ApprovalRequest;
  readonly inputDigest: string;
  readonly evidence: string | null;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly decidedAt: string | null;
  readonly remember: Remember | null;
  readonly outcome: ApprovalOutcome | null;
  /** A batch decision holding this approval while it decides the rest (all or nothing). */
  readonly heldBy: string | null;
  /** When the hold was taken: a hold outlives its batch only by HOLD_LEASE_MS (a crashed batch frees it). */
  readonly heldAt?: string | null;
  /** When execution started. */
  readonly executingSince?: string | null;
  /**
   * Until when the executor holds the call: it renews this while the tool runs, so a long tool
   * keeps it and a dead executor lets it lapse. Absent on executions stored before leases were
   * renewed: those lapse LEGACY_EXECUTION_LEASE_MS after they started.
   */
  readonly executingUntil?: string | null;
  /**
   * The W3C `traceparent` of the call that parked it, when a trace recorded it: its execution
   * joins that trace. Opaque here.
   */
  readonly traceparent?: string;
}

/** A batch decides within seconds; a hold older than this belongs to a batch that died. */
export const HOLD_LEASE_MS = 30_000;
/**
 * How long an execution lease lasts; the executor renews it every third of that while the tool
 * runs. An executor that let it lapse died mid-call (a crash, a kill): the call is never run again
 * (it may have taken effect) and the approval reads executed, with an interrupted outcome.
 */
export const EXECUTION_LEASE_MS = 30_000;
/** The one lease of executions stored before the executor renewed it. */
const LEGACY_EXECUTION_LEASE_MS = 15 * 60_000;

/** What an execution whose executor died reads as. */
export const INTERRUPTED_ERROR =
  'The call was interrupted before it finished (its executor stopped); it was not run again and may or may not have taken effect';

/**
 * What can name an approval on the wire: its `apr_` id or the tool-call id it parked, both visible
 * ASCII. Anything else (a control character, a space, a very long string) names none.
 */
export const APPROVAL_REF = /^[\x21-\x7e]{1,256}$/;

export function canNameApproval(ref: string): boolean {
  return APPROVAL_REF.test(ref);
}

const after = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

export class ApprovalAlreadyDecided extends Conflict {
  constructor(id: string, state: WireApprovalState) {
    super(`Approval ${id} was already decided (${state})`, { state });
  }
}

export class ApprovalNotApproved extends Conflict {
  constructor(id: string) {
    super(`Approval ${id} is not approved`);
  }
}

/** A parked tool call waiting for a person's answer. Changes return a new Approval. */
export class Approval extends aggregateOf<ApprovalPrimitives>().reading('id', 'subject', 'request', 'remember', 'heldBy', 'outcome') {
  private constructor(props: ApprovalPrimitives) {
    super(props);
  }

  static park(input: {
    id: string;
    call: RuledCall;
    preview: string;
    now: string;
    expiresAt: string;
    threadId?: string;
    runId?: string;
    appId?: string;
    contentHash?: string;
  }): Approval {
    const { call } = input;
    const automation = call.automation;
    return new Approval({
      id: input.id,
      subject: call.principal.subject,
      state: 'pending',
      request: {
        toolCallId: call.toolCallId,
        tool: call.tool,
        input: call.input,
        risk: call.effective.risk,
        egress: call.effective.egress,
        preview: input.preview,
        venue: call.venue,
        presence: call.presence,
        session: call.session,
        ...threadAndRun(input),
        ...defined({
          automationId: automation?.automationId,
          appliesTo: automation ? { kind: 'automation' as const, ...automation } : undefined,
          appId: input.appId || undefined,
          contentHash: input.contentHash || undefined,
        }),
      },
      inputDigest: call.inputDigest,
      evidence: call.evidence ?? null,
      createdAt: input.now,
      expiresAt: input.expiresAt,
      decidedAt: null,
      remember: null,
      outcome: null,
      heldBy: null,
    });
  }

  static fromPrimitives(props: ApprovalPrimitives): Approval {
    return new Approval(props);
  }

  /** An automation's arming ask: approving it is itself the ask for a standing grant (no call runs). */
  get asksForStandingGrant(): boolean {
    return Boolean(this.props.request.automationId) && !this.props.request.runId;
  }

  /** Where a grant made from this approval applies (rows parked before `appliesTo` derive it). */
  get grantReach(): GrantReach {
    const { appliesTo, automationId } = this.props.request;
    return appliesTo ?? (automationId ? { kind: 'automation', automationId } : { kind: 'anywhere' });
  }

  /** The trace the call was parked in, if one recorded it. */
  get traceparent(): string | null {
    return this.props.traceparent ?? null;
  }

  /** The same approval, remembering the trace its call was parked in. */
  tracedIn(traceparent: string): Approval {
    return this.with({ traceparent });
  }

  /** Whether a batch holds it now (a hold whose batch died lapses after HOLD_LEASE_MS). */
  isHeldAt(now: string): boolean {
    return this.props.heldBy !== null && (!this.props.heldAt || now < after(this.props.heldAt, HOLD_LEASE_MS));
  }

  /**
   * The state as of `now`: a pending approval past its expiry reads as expired; an execution that
   * outlived its lease reads as executed (interrupted).
   */
  stateAt(now: string): ApprovalState {
    if (this.props.state === 'pending' && now >= this.props.expiresAt) return 'expired';
    if (this.interruptedAt(now)) return 'executed';
    return this.props.state;
  }

  private interruptedAt(now: string): boolean {
    const until = this.executionLeaseEnd();
    return this.props.state === 'executing' && until !== null && now >= until;
  }

  private executionLeaseEnd(): string | null {
    if (this.props.executingUntil) return this.props.executingUntil;
    return this.props.executingSince ? after(this.props.executingSince, LEGACY_EXECUTION_LEASE_MS) : null;
  }

  /** Its approved call is running (stored as `executing`, whether or not its lease has lapsed). */
  get isExecuting(): boolean {
    return this.props.state === 'executing';
  }

  isPendingAt(now: string): boolean {
    return this.stateAt(now) === 'pending';
  }

  /** An arming ask keeps no `remember`: what it grants is fixed (see grantFromApproval). */
  approve(at: string, remember: Remember | null, batch: string | null = null): Approval {
    this.mustBeUndecided(at, batch);
    return this.with({
      state: 'approved',
      decidedAt: at,
      remember: this.asksForStandingGrant ? null : remember,
      heldBy: null,
      heldAt: null,
    });
  }

  deny(at: string, batch: string | null = null): Approval {
    this.mustBeUndecided(at, batch);
    return this.with({ state: 'denied', decidedAt: at, outcome: { kind: 'denied' }, heldBy: null, heldAt: null });
  }

  /** A batch reserves the approval so no single decision slips in between its checks. */
  holdFor(batch: string, at: string): Approval {
    this.mustBeUndecided(at, null);
    return this.with({ heldBy: batch, heldAt: at });
  }

  release(): Approval {
    return this.with({ heldBy: null, heldAt: null });
  }

  /** The executor claims the call, leased for `leaseMs`. */
  startExecution(at: string, leaseMs: number = EXECUTION_LEASE_MS): Approval {
    if (this.props.state !== 'approved') throw new ApprovalNotApproved(this.props.id);
    return this.with({ state: 'executing', executingSince: at, executingUntil: after(at, leaseMs) });
  }

  /**
   * The executor's heartbeat: the lease runs `leaseMs` from `at`. Null once the lease has lapsed
   * (readers were told the call was interrupted) or the execution is over.
   */
  renewExecution(at: string, leaseMs: number = EXECUTION_LEASE_MS): Approval | null {
    if (this.props.state !== 'executing' || this.interruptedAt(at)) return null;
    return this.with({ executingUntil: after(at, leaseMs) });
  }

  /**
   * The executor's own outcome. It is recorded even when the lease lapsed meanwhile (a stalled
   * process, a database that was away): what the tool did is better known than "interrupted".
   */
  finish(outcome: Extract<ApprovalOutcome, { kind: 'executed' }>): Approval {
    if (this.props.state !== 'executing') throw new ApprovalNotApproved(this.props.id);
    return this.with({ state: 'executed', outcome, executingUntil: null });
  }

  /**
   * Ends an approval whose call has not run without an answer: timed out, its run stopped, or its
   * content changed. Only what may still lead to a call expires: one still pending at `at`, or one
   * approved whose call has not started. An approved arming ask is not: approving it made its
   * standing grant, so there is no call left to withhold. Null when there is nothing to expire
   * (decided otherwise, executing, executed, or already expired).
   */
  expire(at: string, reason: 'timeout' | 'dropped' | 'invalidated'): Approval | null {
    const state = this.stateAt(at);
    const stillToRun = state === 'pending' || (state === 'approved' && !this.asksForStandingGrant);
    if (!stillToRun) return null;
    return this.with({ state: 'expired', decidedAt: at, outcome: { kind: 'expired', reason }, heldBy: null });
  }

  /**
   * What a decider who came too late is told the approval was decided as: an execution under way
   * was approved (its call is running), everything else is its state at `now`.
   */
  decidedAs(now: string): WireApprovalState {
    const state = this.stateAt(now);
    return state === 'executing' ? 'approved' : state;
  }

  /**
   * What the outside is told of the outcome at `now`: an execution whose lease lapsed was
   * interrupted, and an approval that timed out without being stored as expired expired on timeout.
   */
  outcomeAt(now: string): ApprovalOutcome | null {
    if (this.interruptedAt(now)) return { kind: 'executed', ok: false, error: INTERRUPTED_ERROR };
    if (this.stateAt(now) === 'expired' && !this.props.outcome) return { kind: 'expired', reason: 'timeout' };
    return this.props.outcome;
  }

  private mustBeUndecided(at: string, batch: string | null): void {
    const state = this.stateAt(at);
    if (state !== 'pending') throw new ApprovalAlreadyDecided(this.props.id, this.decidedAs(at));
    if (this.isHeldAt(at) && this.props.heldBy !== batch) throw new ApprovalAlreadyDecided(this.props.id, 'pending');
  }
}
