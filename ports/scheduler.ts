/**
 * What the scheduler needs around the core: cron arithmetic, a way to hand runs to executors, and
 * the background machinery (an interval ticker, a job engine) that drives ticks and executions.
 */

/** Cron arithmetic in a timezone (croner). */
export interface CronCalendar {
  /** Why the expression or timezone is not usable, or null when it is. */
  problem(cron: string, timezone?: string): string | null;
  /** The latest instant the schedule names at or before `at`, or null when there is none. */
  latestAtOrBefore(cron: string, timezone: string | undefined, at: Date): Date | null;
  /** The first instant the schedule names after `at`, or null. */
  nextAfter(cron: string, timezone: string | undefined, at: Date): Date | null;
}

/**
 * Hands queued runs to executors: in this process, or through a job engine to whichever instance
 * is free. Handing a run over twice is harmless: an executor claims it before running it. With
 * `at`, not before that instant (a retry's backoff): a job engine holds the job until then; in a
 * process the tick's sweep hands it over again after a restart.
 */
export interface RunDispatcher {
  dispatch(runIds: ReadonlyArray<string>, at?: Date): Promise<void>;
}

/**
 * Hands completion webhooks to a sender, now or at `at` (the next attempt's backoff). Handing one
 * over twice is harmless: a sender takes each attempt by compare-and-swap.
 */
export interface WebhookDispatcher {
  dispatch(webhookIds: ReadonlyArray<string>, at?: Date): Promise<void>;
}

/** What the scheduling adapters drive in the core. */
export interface SchedulerWork {
  /**
   * Claims every due slot and starts its run; also ends crashed runs and re-hands lost ones and due
   * retries. Answers the runs it started and the next instant an armed schedule names (null when
   * none does), so a ticker can wake at that slot rather than an interval later.
   */
  tick(): Promise<{ runIds: ReadonlyArray<string>; nextSlotAt?: Date | null }>;
  /** Executes one queued run to its end (or its next wait); resolves when this executor lets go. */
  executeRun(runId: string): Promise<void>;
  /** Makes the next attempt at one completion webhook, if it is due. */
  deliverWebhook(webhookId: string): Promise<void>;
}

/** A background scheduler: started with the composition, stopped when it closes. */
export interface BackgroundScheduler {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Where an instance with room finds queued runs: the store's queued records, shared by every
 * instance, so a slot's runs spread over whichever instances are free rather than pile onto the
 * one that ticked.
 */
export interface QueuedRunSource {
  /**
   * Up to `count` ids of queued runs that are due now, none of `skip`, oldest first but spread, so
   * instances picking at the same moment rarely pick the same run (an executor's claim decides).
   */
  pick(count: number, skip: ReadonlySet<string>): Promise<string[]>;
}

/**
 * Wake-ups that travel to every instance sharing the store (PostgreSQL's LISTEN/NOTIFY through the
 * store's feeds), so instances act now instead of at their next poll or tick.
 */
export interface WakeUps {
  /** Tells every instance; never throws (the instances' polls and ticks cover a lost wake-up). */
  signal(): Promise<void>;
  /** Calls `wake` on every signal, from any instance, until the answered function is called. */
  watch(wake: () => void): Promise<() => void>;
}

/** "Queued runs are waiting": idle instances look for them now. */
export type RunWakeUps = WakeUps;

/** "A schedule was armed": every instance's ticker learns its next slot now, not at its next tick. */
export type ScheduleWakeUps = WakeUps;
