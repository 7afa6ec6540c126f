import type { Approval } from '../../domain/guard/approval.js';
import type { RecordSet } from '../../ports/store.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { Telemetry } from '../../ports/telemetry.js';
import { ApprovalBook } from './approval-book.js';

/**
 * Approvals that remember the trace they were parked in: a new approval saved while a span records
 * (the tool call that parked it) keeps that span's `traceparent`, so its execution, on any
 * instance and after any wait, joins the same trace.
 */
export class TracedApprovalBook extends ApprovalBook {
  constructor(
    records: RecordSet<ApprovalPrimitives>,
    private readonly telemetry: Telemetry,
  ) {
    super(records);
  }

  override save(approval: Approval): Promise<void> {
    const traceparent = approval.traceparent ? null : this.telemetry.traceparent();
    return super.save(traceparent ? approval.tracedIn(traceparent) : approval);
  }
}
