import { Approval, ApprovalAlreadyDecided, canNameApproval, type ApprovalPrimitives } from '../../domain/guard/approval.js';
import { AtomicityUnavailable, NotFound } from '../../domain/errors.js';
import { everyRecord, type RecordSet, type StoredRecord } from '../../ports/store.js';

export interface LoadedApproval {
  readonly approval: Approval;
  readonly record: StoredRecord<ApprovalPrimitives>;
}

/**
 * Approvals in the store. Every state change is a claim on the revision that was read, so of many
 * racing deciders or executors exactly one moves the approval on. A store without claims cannot
 * promise that, so changes fail closed on it.
 */
export class ApprovalBook {
  constructor(private readonly records: RecordSet<ApprovalPrimitives>) {}

  async park(approval: Approval): Promise<void> {
    const props = approval.toPrimitives();
    await this.records.put({ id: props.id, data: props, refs: refsOf(props) });
  }

  async find(id: string): Promise<LoadedApproval | null> {
    const record = await this.records.get(id);
    return record ? { approval: Approval.fromPrimitives(record.data), record } : null;
  }

  /**
   * The subject's approval named by `ref`: its `apr_` id, or the tool-call id it parked (the spec
   * names approvals by the latter). Tool-call ids are minted by the model, so two of a person's
   * approvals may share one (the same prompt in two threads of a scripted model): the tool-call id
   * then names the newest of them, and the `apr_` id stays exact. Anything else, someone else's
   * included, is not-found (a foreign id is never revealed).
   */
  async ownedBy(subject: string, ref: string): Promise<LoadedApproval> {
    if (!canNameApproval(ref)) throw new NotFound('Approval');
    const byId = await this.find(ref);
    if (byId && byId.approval.subject === subject) return byId;
    const [byCall] = (await this.records.list({ refs: { subject, toolCall: ref }, limit: 1 })).items;
    if (!byCall) throw new NotFound('Approval');
    return { approval: Approval.fromPrimitives(byCall.data), record: byCall };
  }

  /** True for the single caller whose read still matched; false when someone else moved it first. */
  async move(from: LoadedApproval, to: Approval): Promise<boolean> {
    if (!this.records.claim) throw new AtomicityUnavailable('atomic claims on approvals');
    const props = to.toPrimitives();
    return this.records.claim(from.record, { data: props, refs: refsOf(props) });
  }

  /** Like move, but losing the race is reported as the decision that won. */
  async moveOrConflict(from: LoadedApproval, to: Approval, now: string): Promise<void> {
    if (await this.move(from, to)) return;
    const current = await this.find(from.approval.id);
    const state = current?.approval.stateAt(now) ?? 'expired';
    throw new ApprovalAlreadyDecided(from.approval.id, state === 'executing' ? 'approved' : state);
  }

  async list(refs: Record<string, string>, limit = 100, cursor: string | null = null): Promise<{ items: LoadedApproval[]; nextCursor: string | null }> {
    const page = await this.records.list({ refs, limit, cursor });
    return { items: page.items.map((record) => ({ approval: Approval.fromPrimitives(record.data), record })), nextCursor: page.nextCursor };
  }

  /** Every approval matching the refs (walks all pages). */
  async all(refs: Record<string, string>): Promise<LoadedApproval[]> {
    return (await everyRecord(this.records, refs)).map((record) => ({ approval: Approval.fromPrimitives(record.data), record }));
  }
}

function refsOf(props: ApprovalPrimitives): Record<string, string> {
  const refs: Record<string, string> = {
    subject: props.subject,
    state: props.state,
    session: props.request.session,
    call: `${props.request.session}:${props.request.tool}:${props.inputDigest}`,
  };
  // Only a tool-call id that can name an approval is indexed: a model's id is not trusted to be one.
  if (canNameApproval(props.request.toolCallId)) refs.toolCall = props.request.toolCallId;
  if (props.request.threadId) refs.thread = props.request.threadId;
  if (props.request.runId) refs.run = props.request.runId;
  if (props.request.automationId) refs.automation = props.request.automationId;
  if (props.request.appId) refs.app = props.request.appId;
  return refs;
}
