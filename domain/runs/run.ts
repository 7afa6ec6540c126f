import type { Owner } from '../automations/automation.js';
import { RESERVED_SUBJECT_PREFIX } from '../principal.js';

/** Runs a schedule starts are started by this reserved subject; deliveries by `porter:webhook:<source>`. */
export const SCHEDULER_SUBJECT = `${RESERVED_SUBJECT_PREFIX}scheduler`;

/**
 * `queued` → `running` ⇄ `waiting` (a call parked for the owner's approval) → `succeeded` |
 * `failed` | `cancelled`. The last three are terminal.
 */
export type RunState = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';

export const TERMINAL_RUN_STATES: ReadonlySet<RunState> = new Set(['succeeded', 'failed', 'cancelled']);

/** Why a run started. `startedBy` is the reserved subject that started it (see RunPrimitives). */
export type RunCause =
  { readonly kind: 'schedule'; readonly slot: string } | { readonly kind: 'webhook'; readonly source: string; readonly deliveryId: string };

/** Why a run ended, beside its terminal state. */
export type RunEnding = 'completed' | 'stopped' | 'interrupted' | 'error';

/** Which executor holds a running run, and until when; a holder that stops renewing has crashed. */
export interface RunLease {
  readonly holder: string;
  readonly until: string;
}

export interface RunPrimitives {
  readonly id: string;
  readonly automationId: string;
  /** Whose run it is: the automation's owner. Tool calls act as the owner, with their standing grants. */
  readonly owner: Owner;
  /**
   * Who started it, a reserved subject: `porter:webhook:<source>` for a delivery,
   * `porter:scheduler` for a schedule. Audit events about the start are filed under it.
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
}

/** A run of an automation. Changes return a new Run; the book makes each one a compare-and-swap. */
export class Run {
  private constructor(private readonly props: RunPrimitives) {}

  static queue(input: Omit<RunPrimitives, 'state' | 'startedAt' | 'endedAt' | 'stopRequestedAt' | 'ending' | 'error' | 'lease'>): Run {
    return new Run({
      ...input,
      state: 'queued',
      startedAt: null,
      endedAt: null,
      stopRequestedAt: null,
      ending: null,
      error: null,
      lease: null,
    });
  }

  static fromPrimitives(props: RunPrimitives): Run {
    return new Run(props);
  }

  toPrimitives(): RunPrimitives {
    return this.props;
  }

  get id(): string {
    return this.props.id;
  }

  get state(): RunState {
    return this.props.state;
  }

  get owner(): Owner {
    return this.props.owner;
  }

  get automationId(): string {
    return this.props.automationId;
  }

  get terminal(): boolean {
    return TERMINAL_RUN_STATES.has(this.props.state);
  }

  get stopRequested(): boolean {
    return this.props.stopRequestedAt !== null;
  }

  get lease(): RunLease | null {
    return this.props.lease;
  }

  /** An executor takes a queued run; null when it is not queued (taken, stopped or ended). */
  begin(holder: string, at: string, leaseUntil: string): Run | null {
    if (this.props.state !== 'queued') return null;
    return this.with({ state: 'running', startedAt: this.props.startedAt ?? at, lease: { holder, until: leaseUntil } });
  }

  /** The holder renews its lease; null when it no longer holds the run. */
  renew(holder: string, leaseUntil: string): Run | null {
    if (this.props.state !== 'running' || this.props.lease?.holder !== holder) return null;
    return this.with({ lease: { holder, until: leaseUntil } });
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
   * A stop: a run nobody executes (queued, waiting) is cancelled at once; a running one is asked
   * to stop and its executor finishes the current step first. Stopping again changes nothing.
   */
  requestStop(at: string): Run {
    if (this.terminal || this.props.stopRequestedAt) return this;
    if (this.props.state === 'running') return this.with({ stopRequestedAt: at });
    return this.with({ stopRequestedAt: at, state: 'cancelled', ending: 'stopped', endedAt: at, lease: null });
  }

  /** The executor's end of a stopped run, once the current step and its calls are done. */
  cancel(at: string): Run {
    return this.end('cancelled', 'stopped', at, null);
  }

  succeed(at: string): Run {
    return this.end('succeeded', 'completed', at, null);
  }

  fail(at: string, error: string): Run {
    return this.end('failed', 'error', at, error);
  }

  /** A running run whose executor stopped renewing its lease: it crashed, and the run ends. */
  interrupt(at: string): Run {
    return this.end('failed', 'interrupted', at, 'The instance executing this run stopped before it finished');
  }

  leaseExpiredAt(now: string): boolean {
    return this.props.state === 'running' && this.props.lease !== null && this.props.lease.until <= now;
  }

  private end(state: RunState, ending: RunEnding, at: string, error: string | null): Run {
    if (this.terminal) return this;
    return this.with({ state, ending, endedAt: at, error, lease: null });
  }

  private with(changes: Partial<RunPrimitives>): Run {
    return new Run({ ...this.props, ...changes });
  }
}
