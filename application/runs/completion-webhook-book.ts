import { CompletionWebhook, type CompletionWebhookPrimitives } from '../../domain/runs/completion-webhook.js';
import { AtomicityUnavailable } from '../../domain/errors.js';
import { ID_PREFIXES } from '../../domain/ids.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { completionWebhookShape } from './stored-shapes.js';
import { defined } from '../../domain/defined.js';

export type LoadedCompletionWebhook = Loaded<'webhook', CompletionWebhook, CompletionWebhookPrimitives>;

/**
 * Completion webhooks and their delivery logs, indexed by run, owner and (while pending) `pending`,
 * so the sweep reads only those still to deliver. One per run: its id derives from the run's.
 */
export class CompletionWebhookBook extends AggregateBook<'webhook', CompletionWebhook, CompletionWebhookPrimitives> {
  constructor(records: RecordSet<CompletionWebhookPrimitives>) {
    super(records, {
      collection: 'run-webhooks',
      key: 'webhook',
      noun: 'Completion webhook',
      schema: completionWebhookShape,
      ...asPrimitives(CompletionWebhook),
      refsOf: (props) => ({ run: props.runId, owner: props.owner, ...defined({ pending: props.state === 'pending' ? 'yes' : undefined }) }),
      ownerOf: (webhook) => webhook.toPrimitives().owner,
    });
  }

  /** Records it unless the run's webhook exists already (the follow-up ran twice): true when this call added it. */
  async addIfAbsent(webhook: CompletionWebhook): Promise<boolean> {
    const atomic = this.records.atomic;
    if (!atomic) throw new AtomicityUnavailable('insert-if-absent on completion webhooks');
    const props = webhook.toPrimitives();
    return (await atomic.insertIfAbsent({ id: props.id, data: props, refs: this.mapping.refsOf(props) })) !== null;
  }

  /** The run's webhooks (one, or none), for its delivery log. */
  async ofRun(runId: string): Promise<CompletionWebhook[]> {
    return (await this.all({ run: runId })).map((loaded) => loaded.webhook);
  }

  /** Every webhook not yet delivered or given up on (the sweep hands the due ones out again). */
  pending(): Promise<LoadedCompletionWebhook[]> {
    return this.all({ pending: 'yes' });
  }
}

/** The `evt_` id of a run's completion webhook: derived from the run's, so recording it twice records it once. */
export function completionWebhookId(runId: string): string {
  return `${ID_PREFIXES.runEvent}${runId.slice(ID_PREFIXES.run.length)}`;
}
