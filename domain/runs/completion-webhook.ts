import { aggregateOf } from '../aggregate.js';
import type { RunState } from './run.js';

/** What a completion webhook says happened to the run. */
export type CompletionEvent = 'run.completed' | 'run.failed' | 'run.cancelled';

export const COMPLETION_EVENTS = ['run.completed', 'run.failed', 'run.cancelled'] as const satisfies ReadonlyArray<CompletionEvent>;

/** The event a run's end sends; none for a run that was skipped (it never started). */
export function completionEventOf(state: RunState): CompletionEvent | null {
  if (state === 'succeeded') return 'run.completed';
  if (state === 'failed') return 'run.failed';
  if (state === 'cancelled') return 'run.cancelled';
  return null;
}

/** One try at delivering: what the receiver answered, or why nothing was answered. */
export interface WebhookAttempt {
  readonly number: number;
  readonly at: string;
  /** The receiver's HTTP status, or null when no answer came (refused, unreachable, timed out). */
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/** `pending` until a receiver answered 2xx (`delivered`) or the retries ran out or cannot help (`failed`). */
export type CompletionWebhookState = 'pending' | 'delivered' | 'failed';

export interface CompletionWebhookPrimitives {
  /** The `evt_` id, sent as `webhook-id`: the same on every attempt, so a receiver can deduplicate. */
  readonly id: string;
  readonly runId: string;
  readonly automationId: string;
  /** The run's owner (subject): the only one who reads its log. */
  readonly owner: string;
  readonly url: string;
  /** The endpoint's secret as the automation held it when the run ended (sealed), so the log can finish without it. */
  readonly sealedSecret: string;
  readonly type: CompletionEvent;
  /** The JSON body, fixed when the run ended, so every attempt sends (and signs) the same bytes. */
  readonly body: string;
  readonly createdAt: string;
  readonly state: CompletionWebhookState;
  readonly attempts: ReadonlyArray<WebhookAttempt>;
  /** When the next attempt is due; null once delivered or failed. */
  readonly nextAttemptAt: string | null;
  /** Which sender is attempting it now, and until when (a sender that died lets go). */
  readonly lease: { readonly holder: string; readonly until: string } | null;
}

/** The answer to one attempt, as the sender saw it. */
export interface AttemptReport {
  readonly at: string;
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  /** False when trying again cannot help (the egress guard refused the address). */
  readonly retryable: boolean;
}

/**
 * The completion webhook of one run: a Standard Webhooks delivery to the automation's `notify`
 * URL, tried until the receiver answers 2xx or the retries run out, every attempt in its log.
 * One sender holds an attempt at a time (a lease, taken by compare-and-swap).
 */
export class CompletionWebhook extends aggregateOf<CompletionWebhookPrimitives>().reading(
  'id',
  'runId',
  'automationId',
  'url',
  'sealedSecret',
  'body',
  'state',
  'attempts',
  'nextAttemptAt',
) {
  private constructor(props: CompletionWebhookPrimitives) {
    super(props);
  }

  static record(
    input: Pick<
      CompletionWebhookPrimitives,
      'id' | 'runId' | 'automationId' | 'owner' | 'url' | 'sealedSecret' | 'type' | 'body' | 'createdAt'
    >,
  ): CompletionWebhook {
    return new CompletionWebhook({ ...input, state: 'pending', attempts: [], nextAttemptAt: input.createdAt, lease: null });
  }

  static fromPrimitives(props: CompletionWebhookPrimitives): CompletionWebhook {
    return new CompletionWebhook(props);
  }

  /** Pending, its next attempt due, and nobody attempting it (or whoever was has stopped renewing). */
  dueAt(at: string): boolean {
    if (this.props.state !== 'pending' || this.props.nextAttemptAt === null || this.props.nextAttemptAt > at) return false;
    return this.props.lease === null || this.props.lease.until <= at;
  }

  /** A sender takes the next attempt; null when it is not due or someone else holds it. */
  begin(holder: string, at: string, leaseUntil: string): CompletionWebhook | null {
    return this.dueAt(at) ? this.with({ lease: { holder, until: leaseUntil } }) : null;
  }

  /**
   * The holder reports its attempt: a 2xx delivers it; otherwise it is tried again at `retryAt`,
   * or fails when there is none or trying again cannot help. Null when `holder` no longer holds it.
   */
  attempted(holder: string, report: AttemptReport, retryAt: string | null): CompletionWebhook | null {
    if (this.props.state !== 'pending' || this.props.lease?.holder !== holder) return null;
    const attempt: WebhookAttempt = {
      number: this.props.attempts.length + 1,
      at: report.at,
      status: report.status,
      error: report.error,
      durationMs: report.durationMs,
    };
    const delivered = report.status !== null && report.status >= 200 && report.status < 300;
    const again = !delivered && report.retryable && retryAt !== null;
    return this.with({
      attempts: [...this.props.attempts, attempt],
      state: delivered ? 'delivered' : again ? 'pending' : 'failed',
      nextAttemptAt: again ? retryAt : null,
      lease: null,
    });
  }
}
