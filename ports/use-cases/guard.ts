import type { ApprovalOutcome, ApprovalRequest, WireApprovalState } from '../../domain/guard/approval.js';
import type { GrantPrimitives, Remember } from '../../domain/guard/grant.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** `GET /approvals/:id`. `request` may be absent while pending: the call is executing; keep polling. */
export interface ApprovalView {
  readonly id: string;
  readonly state: WireApprovalState;
  readonly request?: ApprovalRequest;
  readonly outcome?: ApprovalOutcome;
}

export interface ApprovalList {
  readonly approvals: ReadonlyArray<ApprovalView>;
  readonly nextCursor: string | null;
}

export interface Decision {
  readonly principal: Principal;
  /** The approval's `apr_` id, or the tool-call id it parked. */
  readonly approvalId: string;
  readonly approve: boolean;
  readonly remember?: Remember;
}

export interface BatchDecision {
  readonly principal: Principal;
  /** `apr_` ids or parked tool-call ids, in any mix; two naming one approval decide it once. */
  readonly approvalIds: ReadonlyArray<string>;
  readonly approve: boolean;
}

export type GrantView = Omit<GrantPrimitives, 'inputDigest' | 'evidence'>;

export interface Paged {
  readonly principal: Principal;
  readonly limit?: number;
  readonly cursor?: string | null;
}

export interface GuardUseCases {
  readonly listApprovals: UseCase<Paged, ApprovalList>;
  /** `approvalId`: the `apr_` id, or the tool-call id the approval parked. */
  readonly getApproval: UseCase<{ principal: Principal; approvalId: string }, ApprovalView>;
  readonly decideApproval: UseCase<Decision, ApprovalView>;
  readonly decideApprovals: UseCase<BatchDecision, { approvals: ReadonlyArray<ApprovalView> }>;
  readonly listGrants: UseCase<Paged, { grants: ReadonlyArray<GrantView>; nextCursor: string | null }>;
  readonly revokeGrant: UseCase<{ principal: Principal; grantId: string }, void>;
}
