import type { Approval } from '../../domain/guard/approval.js';
import type { ApprovalView } from '../../ports/use-cases/guard.js';
import { defined } from '../../domain/defined.js';

/**
 * What `GET /approvals/:id` answers at `now`. `executing` is not a wire state: an execution under
 * way reads as `pending` without `request` (the resume window), so a client keeps polling until it
 * reads `executed`.
 */
export function approvalView(approval: Approval, now: string): ApprovalView {
  const state = approval.stateAt(now);
  if (state === 'executing') return { id: approval.id, state: 'pending' };
  const outcome = approval.outcomeAt(now);
  return { id: approval.id, state, request: approval.request, ...defined({ outcome: outcome || undefined }) };
}
