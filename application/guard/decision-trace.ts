import type { Approval } from '../../domain/guard/approval.js';
import { ATTR, type Telemetry } from '../../ports/telemetry.js';
import type { ApprovalHook } from './approval-hooks.js';

/**
 * A decision as a `porter.approval.decision` span in the trace of the call that was parked (the
 * turn that asked), linked to the request that decided it: one trace holds the ask, the answer and
 * the execution, however long the person took and wherever they answered.
 */
export class DecisionTrace implements ApprovalHook {
  constructor(private readonly telemetry: Telemetry) {}

  onDecided(approval: Approval, approved: boolean): Promise<void> {
    return this.telemetry.span(
      'porter.approval.decision',
      () => ({
        [ATTR.approvalId]: approval.id,
        [ATTR.approved]: approved,
        [ATTR.toolName]: approval.request.tool,
        [ATTR.risk]: approval.request.risk,
        [ATTR.threadId]: approval.request.threadId,
        [ATTR.runId]: approval.request.runId,
        [ATTR.automationId]: approval.request.automationId,
        [ATTR.subject]: this.telemetry.subject(approval.subject),
        'porter.approval.remember': approval.remember ? `${approval.remember.scope}/${approval.remember.duration}` : undefined,
      }),
      async () => undefined,
      { parent: approval.traceparent },
    );
  }
}
