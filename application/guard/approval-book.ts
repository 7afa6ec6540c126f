import { Approval, ApprovalAlreadyDecided, canNameApproval, type ApprovalPrimitives } from '../../domain/guard/approval.js';
import { NotFound } from '../../domain/errors.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { approvalShape } from './stored-shapes.js';

export type LoadedApproval = Loaded<'approval', Approval, ApprovalPrimitives>;

/**
 * Approvals in the store. Every state change is a swap on the revision that was read, so of many
 * racing deciders or executors exactly one moves the approval on.
 */
export class ApprovalBook extends AggregateBook<'approval', Approval, ApprovalPrimitives> {
  constructor(records: RecordSet<ApprovalPrimitives>) {
    super(records, {
      collection: 'approvals',
      key: 'approval',
      noun: 'Approval',
      schema: approvalShape,
      ...asPrimitives(Approval),
      refsOf,
      ownerOf: (approval) => approval.subject,
    });
  }

  /**
   * The subject's approval named by `ref`: its `apr_` id, or the tool-call id it parked (the spec
   * names approvals by the latter). Tool-call ids are minted by the model, so two of a person's
   * approvals may share one (the same prompt in two threads of a scripted model): the tool-call id
   * then names the newest of them, and the `apr_` id stays exact. Anything else, someone else's
   * included, is not-found (a foreign id is never revealed).
   */
  override async ownedBy(subject: string, ref: string): Promise<LoadedApproval> {
    if (!canNameApproval(ref)) throw new NotFound('Approval');
    const byId = await this.find(ref);
    if (byId && byId.approval.subject === subject) return byId;
    const [byCall] = (await this.list({ subject, toolCall: ref }, 1)).items;
    if (!byCall) throw new NotFound('Approval');
    return byCall;
  }

  /** Like swap, but losing the race is reported as the decision that won. */
  async swapOrConflict(from: LoadedApproval, to: Approval, now: string): Promise<LoadedApproval> {
    const swapped = await this.swap(from, to);
    if (swapped) return swapped;
    const current = await this.find(from.approval.id);
    throw new ApprovalAlreadyDecided(from.approval.id, current?.approval.decidedAs(now) ?? 'expired');
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
