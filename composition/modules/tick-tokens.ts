import { token } from '../tokens.js';
import type { CronCalendar, SchedulerWork } from '../../ports/scheduler.js';
import type { Tick } from '../../application/scheduler/tick.js';
import type { TickUseCases } from '../../ports/use-cases/runs.js';

/** The tick: what tick-module.ts binds. */
export const TICK_TOKENS = {
  CronCalendar: token<CronCalendar>('CronCalendar'),
  Tick: token<Tick>('Tick'),
  SchedulerWork: token<SchedulerWork>('SchedulerWork'),
  TickUseCases: token<TickUseCases>('TickUseCases'),
};
