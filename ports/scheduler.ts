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
  /** Claims every due slot and starts its run; also ends crashed runs and re-hands lost ones and due retries. */
  tick(): Promise<{ runIds: ReadonlyArray<string> }>;
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
