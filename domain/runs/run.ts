import { aggregateOf } from '../aggregate.js';
import type { Owner } from '../automations/automation.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_RETRY,
  NO_RETRY,
  retryDelayMs,
  type ConcurrencyPolicy,
  type RetryPolicy,
} from '../automations/run-policy.js';
import { RESERVED_SUBJECT_PREFIX } from '../principal.js';
import { defined } from '../defined.js';

/** Runs a schedule starts are started by this reserved subject; deliveries by `porter:webhook:<source>`. */
export const SCHEDULER_SUBJECT = `${RESERVED_SUBJECT_PREFIX}scheduler`;

/**
 * `queued` → `running` ⇄ `waiting` (a call parked for the owner's approval) → `succeeded` |
 * `failed` | `cancelled`; a running run that failed for a transient reason goes back to `queued`
 * until its next attempt is due. A run that arrived while its automation was busy and its
 * concurrency says `skip` is `skipped` without starting. The last four are terminal.
 */
export type RunState = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled' | 'skipped';

export const RUN_STATES = [
  'queued',
  'running',
  'waiting',
  'succeeded',
  'failed',
  'cancelled',
  'skipped',
] as const satisfies ReadonlyArray<RunState>;

export const TERMINAL_RUN_STATES: ReadonlySet<RunState> = new Set(['succeeded', 'failed', 'cancelled', 'skipped']);

/**
 * Why a run started: its schedule's slot, a webhook delivery, the owner asking for a run again
 * with the same input (`rerun`, naming the run it repeats), the owner trying the task without
 * it acting (`dry-run`), or the owner asking for a run now through a tool (`run-now`: an outside
 * agent through the MCP door, or the chat's agent), named by where they asked.
 */
export type RunCause =
  | { readonly kind: 'schedule'; readonly slot: string }
  | { readonly kind: 'webhook'; readonly source: string; readonly deliveryId: string }
  | { readonly kind: 'rerun'; readonly of: string }
  | { readonly kind: 'dry-run' }
  | { readonly kind: 'run-now'; readonly venue: RunNowVenue };

/**
 * Where a person can ask for a run now: the MCP door, a chat, or the wire (`POST
 * /automations/:id/run`, the chrome's Run now). Never a run (or an app) starting another.
 */
export type RunNowVenue = 'mcp' | 'chat' | 'wire';

export const RUN_NOW_VENUES = ['mcp', 'chat', 'wire'] as const satisfies ReadonlyArray<RunNowVenue>;

/** Why a run ended, beside its terminal state. */
export type RunEnding = 'completed' | 'stopped' | 'interrupted' | 'error' | 'skipped';

export const RUN_ENDINGS = ['completed', 'stopped', 'interrupted', 'error', 'skipped'] as const satisfies ReadonlyArray<RunEnding>;

/** How one attempt ended; an attempt still going (or waiting for an approval) has none yet. */
export type AttemptOutcome = 'succeeded' | 'failed' | 'cancelled' | 'interrupted';

/**
 * One attempt at a run: the first execution, or a retry after a transient failure. An attempt
 * that failed and was tried again names when the next one was due (`retryAt`). A retry goes on
 * from the transcript as the failed attempt left it, so a call that already ran is not run again.
 */
export interface RunAttempt {
  readonly number: number;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly outcome: AttemptOutcome | null;
  readonly error: string | null;
  readonly retryAt: string | null;
}

/**
 * What is left to do once a run ended (release its concurrency slot, let the next queued run
 * go, record its completion webhook): `due` until done, so a crash in between leaves the run
 * marked and the sweep finishes the job.
 */
export type RunFollowUp = 'due' | 'done';

/**
 * Which executor holds a running run, and until when; a holder that stops renewing has crashed.
 * `watched`: the holder also holds an engine liveness mark (PostgreSQL: a session advisory lock),
 * so other instances may judge it dead as soon as the mark is gone, before `until`.
 */
export interface RunLease {
  readonly holder: string;
  readonly until: string;
  readonly watched?: true;
}

/** The error an attempt whose instance died ends with. */
export const INTERRUPTED_RUN_ERROR = 'The instance executing this run stopped before it finished';

export interface RunPrimitives {
  readonly id: string;
  readonly automationId: string;
  /** Whose run it is: the automation's owner. Tool calls act as the owner, with their standing grants. */
  readonly owner: Owner;
  /**
   * Who started it: a reserved subject (`porter:webhook:<source>` for a delivery,
   * `porter:scheduler` for a schedule), or the owner's own subject for a rerun or a dry run.
   * Audit events about the start are filed under it.
   */
  readonly startedBy: string;
  readonly cause: RunCause;
  readonly prompt: string;
  /** What the trigger brought (a delivery's body, capped), shown to the agent after the prompt. */
  readonly input: string | null;
  readonly state: RunState;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly stopRequestedAt: string | null;
  readonly ending: RunEnding | null;
  readonly error: string | null;
  readonly lease: RunLease | null;
  /** A dry run: every write, destructive and egress call is previewed instead of executed. */
  readonly dryRun: boolean;
  /** The automation's retry policy when the run was queued. */
  readonly retry: RetryPolicy;
  /** The automation's concurrency when the run was queued. */
  readonly concurrency: ConcurrencyPolicy;
  /** Every attempt so far, oldest first. */
  readonly attempts: ReadonlyArray<RunAttempt>;
  /** A queued run waiting for its next attempt: not begun before this instant. */
  readonly nextAttemptAt: string | null;
  readonly followUp: RunFollowUp | null;
  /**
   * How many of its tool calls ended in an error, counted when it succeeded: a run that finished
   * though a call failed is not shown as plainly done.
   */
  readonly failedCalls: number;
}

/** The fields a run stored before retries, concurrency, dry runs and failed-call counts existed lacks. */
type AddedLater = 'dryRun' | 'retry' | 'concurrency' | 'attempts' | 'nextAttemptAt' | 'followUp' | 'failedCalls';

/** A run as stored: rows written before those fields existed read with their defaults. */
export type StoredRunPrimitives = Omit<RunPrimitives, AddedLater> & Partial<Pick<RunPrimitives, AddedLater>>;

/** What queueing a run takes: its record without what the run itself keeps as it goes. */
export type QueuedRun = Omit<
  RunPrimitives,
  | 'state'
  | 'startedAt'
  | 'endedAt'
  | 'stopRequestedAt'
  | 'ending'
  | 'error'
  | 'lease'
  | 'attempts'
  | 'nextAttemptAt'
  | 'followUp'
  | 'failedCalls'
>;

/** A run of an automation. Changes return a new Run; the book makes each one a compare-and-swap. */
export class Run extends aggregateOf<RunPrimitives>().reading(
  'id',
  'state',
  'owner',
  'automationId',
  'lease',
  'dryRun',
  'concurrency',
  'attempts',
  'nextAttemptAt',
) {
  private constructor(props: RunPrimitives) {
    super(props);
  }

  static queue(input: QueuedRun): Run {
    return new Run({
      ...input,
      state: 'queued',
      startedAt: null,
      endedAt: null,
      stopRequestedAt: null,
      ending: null,
      error: null,
      lease: null,
      attempts: [],
      nextAttemptAt: null,
      followUp: null,
      failedCalls: 0,
    });
  }

  /**
   * A new run of the same automation with this run's prompt and input (a dry run's rerun is a dry
   * run, never retried), under the automation's retry and concurrency as they are now.
   */
  rerun(input: { id: string; startedBy: string; at: string; retry: RetryPolicy; concurrency: ConcurrencyPolicy }): Run {
    const { automationId, owner, prompt, dryRun } = this.props;
    return Run.queue({
      id: input.id,
      automationId,
      owner,
      startedBy: input.startedBy,
      cause: { kind: 'rerun', of: this.props.id },
      prompt,
      input: this.props.input,
      createdAt: input.at,
      dryRun,
      retry: dryRun ? NO_RETRY : input.retry,
      concurrency: input.concurrency,
    });
  }

  static fromPrimitives(props: StoredRunPrimitives): Run {
    return new Run({
      ...props,
      dryRun: props.dryRun ?? false,
      retry: props.retry ?? DEFAULT_RETRY,
      concurrency: props.concurrency ?? DEFAULT_CONCURRENCY,
      attempts: props.attempts ?? [],
      nextAttemptAt: props.nextAttemptAt ?? null,
      followUp: props.followUp ?? null,
      failedCalls: props.failedCalls ?? 0,
    });
  }

  /**
   * As stored: what still has its default (no attempt yet, not a dry run, the default retry and
   * concurrency…) is left out, and `fromPrimitives` reads it back. A tick that starts thousands of
   * runs writes a third less.
   */
  toStored(): StoredRunPrimitives {
    const { dryRun, retry, concurrency, attempts, nextAttemptAt, followUp, failedCalls, ...rest } = this.props;
    return {
      ...rest,
      ...defined({
        dryRun: dryRun || undefined,
        retry: retry.max === DEFAULT_RETRY.max && retry.backoffSeconds === DEFAULT_RETRY.backoffSeconds ? undefined : retry,
        concurrency:
          concurrency.limit === DEFAULT_CONCURRENCY.limit && concurrency.whenBusy === DEFAULT_CONCURRENCY.whenBusy
            ? undefined
            : concurrency,
        attempts: attempts.length ? attempts : undefined,
        nextAttemptAt: nextAttemptAt ?? undefined,
        followUp: followUp ?? undefined,
        failedCalls: failedCalls || undefined,
      }),
    };
  }

  get terminal(): boolean {
    return TERMINAL_RUN_STATES.has(this.props.state);
  }

  get stopRequested(): boolean {
    return this.props.stopRequestedAt !== null;
  }

  get followUpDue(): boolean {
    return this.props.followUp === 'due';
  }

  /** Queued and due: its next attempt (if it waits for one) is not in the future. */
  dueAt(at: string): boolean {
    return this.props.state === 'queued' && (this.props.nextAttemptAt === null || this.props.nextAttemptAt <= at);
  }

  /**
   * An executor takes a queued run; null when it is not queued (taken, stopped or ended) or its
   * next attempt is not due yet. A run that has no attempt going opens one; a run resumed after
   * an approval goes on with the attempt it parked in.
   */
  begin(holder: string, at: string, leaseUntil: string, watched = false): Run | null {
    if (!this.dueAt(at)) return null;
    const open = this.openAttempt() !== null;
    const attempts = open
      ? this.props.attempts
      : [
          ...this.props.attempts,
          { number: this.props.attempts.length + 1, startedAt: at, endedAt: null, outcome: null, error: null, retryAt: null },
        ];
    return this.with({
      state: 'running',
      startedAt: this.props.startedAt ?? at,
      lease: { holder, until: leaseUntil, ...defined({ watched: watched || undefined }) },
      attempts,
      nextAttemptAt: null,
    });
  }

  /** The holder renews its lease; null when it no longer holds the run. */
  renew(holder: string, leaseUntil: string): Run | null {
    const lease = this.props.lease;
    if (this.props.state !== 'running' || lease?.holder !== holder) return null;
    return this.with({ lease: { ...lease, until: leaseUntil } });
  }

  /** Waiting for the owner to answer parked calls; the executor lets go. */
  park(): Run {
    return this.with({ state: 'waiting', lease: null });
  }

  /** Every parked call was answered: back in the queue to go on. */
  requeue(): Run | null {
    return this.props.state === 'waiting' ? this.with({ state: 'queued' }) : null;
  }

  /**
   * A stop: a run nobody executes (queued, waiting, or waiting for its retry) is cancelled at once;
   * a running one is asked to stop and its executor finishes the current step first. Stopping
   * again changes nothing.
   */
  requestStop(at: string): Run {
    if (this.terminal || this.props.stopRequestedAt) return this;
    if (this.props.state === 'running') return this.with({ stopRequestedAt: at });
    return this.with({ stopRequestedAt: at }).end('cancelled', 'stopped', at, null);
  }

  /** The executor's end of a stopped run, once the current step and its calls are done. */
  cancel(at: string): Run {
    return this.end('cancelled', 'stopped', at, null);
  }

  /** Ended on its own; `failedCalls` of its tool calls ended in an error on the way. */
  succeed(at: string, failedCalls = 0): Run {
    if (this.terminal) return this;
    const ended = this.end('succeeded', 'completed', at, null);
    return failedCalls ? ended.with({ failedCalls }) : ended;
  }

  fail(at: string, error: string): Run {
    return this.end('failed', 'error', at, error);
  }

  /**
   * The running attempt failed. A transient failure (the model's 5xx or timeout, the store
   * unavailable…) with retries left, on a run nobody asked to stop and that is not a dry run, is
   * tried again later: the run goes back to the queue until the backoff has passed. Anything else
   * fails the run.
   */
  attemptFailed(at: string, error: string, transient: boolean): Run {
    if (this.props.state !== 'running') return this;
    const failed = this.props.attempts.length;
    const retry = transient && !this.stopRequested && !this.props.dryRun && failed <= this.props.retry.max;
    if (!retry) return this.fail(at, error);
    const retryAt = new Date(Date.parse(at) + retryDelayMs(this.props.retry, failed)).toISOString();
    return this.with({
      state: 'queued',
      lease: null,
      nextAttemptAt: retryAt,
      attempts: this.closeAttempt(at, 'failed', error, retryAt),
    });
  }

  /** Arrived while its automation had `limit` runs in flight, with `whenBusy: 'skip'`: recorded, never started. */
  skip(at: string): Run | null {
    if (this.props.state !== 'queued' || this.props.attempts.length > 0) return null;
    return this.with({ state: 'skipped', ending: 'skipped', endedAt: at });
  }

  /** What followed its end is done (slot released, next run let go, completion webhook recorded). */
  followedUp(): Run | null {
    return this.props.followUp === 'due' ? this.with({ followUp: 'done' }) : null;
  }

  /**
   * A running run whose executor died (its lease lapsed, or its liveness mark is gone). The
   * attempt ends `interrupted`; with retries left, on a run nobody asked to stop that is not a dry
   * run, the run goes back to the queue for its next attempt at once (the instance failed, not the
   * task: no backoff), which counts against `retry.max` like any retry and goes on from the
   * transcript the attempt left. Otherwise the run ends failed `interrupted`.
   */
  interrupt(at: string): Run {
    if (this.props.state !== 'running') return this;
    const tried = this.props.attempts.length;
    if (this.stopRequested || this.props.dryRun || tried > this.props.retry.max)
      return this.end('failed', 'interrupted', at, INTERRUPTED_RUN_ERROR);
    return this.with({
      state: 'queued',
      lease: null,
      nextAttemptAt: at,
      attempts: this.closeAttempt(at, 'interrupted', INTERRUPTED_RUN_ERROR, at),
    });
  }

  leaseExpiredAt(now: string): boolean {
    return this.props.state === 'running' && this.props.lease !== null && this.props.lease.until <= now;
  }

  /** Held by an executor whose liveness mark others may read (see RunLease.watched). */
  get watchedHolder(): string | null {
    const lease = this.props.lease;
    return this.props.state === 'running' && lease?.watched ? lease.holder : null;
  }

  private end(state: RunState, ending: RunEnding, at: string, error: string | null): Run {
    if (this.terminal) return this;
    const outcome: AttemptOutcome =
      ending === 'completed' ? 'succeeded' : ending === 'stopped' ? 'cancelled' : ending === 'interrupted' ? 'interrupted' : 'failed';
    return this.with({
      state,
      ending,
      endedAt: at,
      error,
      lease: null,
      nextAttemptAt: null,
      attempts: this.closeAttempt(at, outcome, error, null),
      followUp: 'due',
    });
  }

  private openAttempt(): RunAttempt | null {
    const last = this.props.attempts[this.props.attempts.length - 1];
    return last && last.endedAt === null ? last : null;
  }

  private closeAttempt(at: string, outcome: AttemptOutcome, error: string | null, retryAt: string | null): ReadonlyArray<RunAttempt> {
    const open = this.openAttempt();
    if (!open) return this.props.attempts;
    return [...this.props.attempts.slice(0, -1), { ...open, endedAt: at, outcome, error, retryAt }];
  }
}
