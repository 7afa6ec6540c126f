import { token } from '../tokens.js';
import type { ScheduleWakeUps, RunDispatcher, WebhookDispatcher } from '../../ports/scheduler.js';

/** How runs and completion webhooks are handed out (pg-boss or this process): what scheduler-module.ts binds. */
export const SCHEDULER_TOKENS = {
  /** "A schedule was armed", to every instance's ticker (absent on a host's Store without feeds). */
  ScheduleWakeUps: token<ScheduleWakeUps | null>('ScheduleWakeUps'),
  RunDispatcher: token<RunDispatcher>('RunDispatcher'),
  /** Hands completion webhooks to a sender: pg-boss jobs, or this process. */
  WebhookDispatcher: token<WebhookDispatcher>('WebhookDispatcher'),
};
