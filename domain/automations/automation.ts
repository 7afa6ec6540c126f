import { aggregateOf } from '../aggregate.js';
import { Conflict } from '../errors.js';
import type { Principal } from '../principal.js';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRY, type ConcurrencyPolicy, type RetryPolicy } from './run-policy.js';
import { defined } from '../defined.js';

/** What makes an automation run: a cron schedule (in a timezone, UTC by default) or a webhook source. */
export type Trigger =
  { readonly kind: 'schedule'; readonly cron: string; readonly timezone?: string } | { readonly kind: 'webhook'; readonly source: string };

/** What a run does: a prompt for the agent, and the tools it asks standing grants for when armed. */
export interface Task {
  readonly prompt: string;
  /** Tools the task needs while nobody is there; arming asks the owner for a standing grant of each. */
  readonly tools?: ReadonlyArray<string>;
}

/** The person an automation works for: runs act as them, with their standing grants only. */
export interface Owner {
  readonly subject: string;
  readonly kind: string;
  readonly name?: string;
  readonly email?: string;
}

/**
 * Where a completion webhook goes when a run ends. The endpoint's `whsec_` secret is shown once,
 * when it is set; what is kept is only that secret sealed with the deployment's key.
 */
export interface NotifyTarget {
  readonly url: string;
  /** The signing secret, sealed (encrypted and authenticated) with the deployment's secret. */
  readonly sealedSecret: string;
  /** When this URL and secret were set. */
  readonly setAt: string;
}

export interface AutomationPrimitives {
  readonly id: string;
  readonly name: string;
  readonly trigger: Trigger;
  readonly task: Task;
  readonly armed: boolean;
  /** When it was last armed: a schedule fires only for instants at or after it. */
  readonly armedAt: string | null;
  readonly owner: Owner;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Absent: the default (two retries, 30 s then 60 s). */
  readonly retry?: RetryPolicy;
  /** Absent: the default (one run at a time, the others queued). */
  readonly concurrency?: ConcurrencyPolicy;
  /** Absent or null: no completion webhook. */
  readonly notify?: NotifyTarget | null;
}

export interface AutomationChanges {
  readonly name?: string;
  readonly trigger?: Trigger;
  readonly task?: Task;
  readonly retry?: RetryPolicy;
  readonly concurrency?: ConcurrencyPolicy;
  /** A new target (with its freshly sealed secret), or null to send none. */
  readonly notify?: NotifyTarget | null;
}

export class AutomationArmed extends Conflict {
  constructor(id: string) {
    super(`Automation ${id} is armed; disarm it before changing its trigger or task`);
  }
}

/**
 * One record: a trigger, a task and an owner. Arming lets its trigger start runs; a run acts as
 * the owner while they are away, so it may use only the owner's standing grants.
 */
export class Automation extends aggregateOf<AutomationPrimitives>().reading('id', 'owner', 'trigger', 'task', 'armed', 'armedAt', 'name') {
  private constructor(props: AutomationPrimitives) {
    super(props);
  }

  static create(input: {
    id: string;
    name: string;
    trigger: Trigger;
    task: Task;
    owner: Principal;
    now: string;
    retry?: RetryPolicy;
    concurrency?: ConcurrencyPolicy;
    notify?: NotifyTarget | null;
  }): Automation {
    const { subject, kind, name, email } = input.owner;
    return new Automation({
      id: input.id,
      name: input.name,
      trigger: input.trigger,
      task: input.task,
      armed: false,
      armedAt: null,
      owner: { subject, kind, ...defined({ name: name || undefined, email: email || undefined }) },
      createdAt: input.now,
      updatedAt: input.now,
      retry: input.retry ?? DEFAULT_RETRY,
      concurrency: input.concurrency ?? DEFAULT_CONCURRENCY,
      notify: input.notify ?? null,
    });
  }

  static fromPrimitives(props: AutomationPrimitives): Automation {
    return new Automation(props);
  }

  get retry(): RetryPolicy {
    return this.props.retry ?? DEFAULT_RETRY;
  }

  get concurrency(): ConcurrencyPolicy {
    return this.props.concurrency ?? DEFAULT_CONCURRENCY;
  }

  get notify(): NotifyTarget | null {
    return this.props.notify ?? null;
  }

  /**
   * Renaming, retries, concurrency and the completion webhook may change any time; what runs
   * (trigger, task) changes only while disarmed.
   */
  change(changes: AutomationChanges, at: string): Automation {
    if (this.props.armed && (changes.trigger || changes.task)) throw new AutomationArmed(this.props.id);
    return this.with({ ...changes, updatedAt: at });
  }

  /** Armed on a schedule: the scheduler's ticks fire it. */
  get onSchedule(): boolean {
    return this.props.armed && this.props.trigger.kind === 'schedule';
  }

  arm(at: string): Automation {
    return this.props.armed ? this : this.with({ armed: true, armedAt: at, updatedAt: at });
  }

  disarm(at: string): Automation {
    return this.props.armed ? this.with({ armed: false, updatedAt: at }) : this;
  }

  /** The session arming asks and standing grants are filed under. */
  get askSession(): string {
    return this.props.id;
  }
}
