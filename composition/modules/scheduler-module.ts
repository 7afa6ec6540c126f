import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { Logger } from '../../ports/logger.js';
import type { BackgroundScheduler, RunDispatcher, SchedulerWork } from '../../ports/scheduler.js';
import type { ExecuteRun } from '../../application/runs/execute-run.js';
import { InProcessDispatcher } from '../../adapters/scheduler/in-process-dispatcher.js';
import { IntervalTicker } from '../../adapters/scheduler/interval-ticker.js';
import type { PgBossFactory } from '../integrations/load-integrations.js';

/** Runs one instance executes at once with the in-process dispatcher. */
export const IN_PROCESS_RUNS = 4;

/** Which scheduler a configuration gets: as configured, else interval in development and external in production. */
export function schedulerKind(config: PorterConfig): 'interval' | 'external' | 'pg-boss' {
  return config.scheduler ?? (config.development ? 'interval' : 'external');
}

/** The pg-boss scheduler's binding (present only with `scheduler: 'pg-boss'`). */
const PG_BOSS = Symbol('pg-boss scheduler');

/**
 * What drives ticks and where runs execute. `interval`: an in-process ticker, runs executed here.
 * `external`: only `POST /tick` (an external cron) drives ticks, runs executed here. `pg-boss`: a
 * pg-boss cron schedule drives ticks once a minute for the whole cluster and runs are pg-boss jobs
 * any instance executes (pg-boss itself is loaded at boot, only then). `POST /tick` answers in every mode.
 */
export function schedulerModule(pgBoss: PgBossFactory | null): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(PG_BOSS)
      .toDynamicValue((ctx) => {
        const config = ctx.get<PorterConfig>(TOKENS.Config);
        if (!pgBoss) throw new Error('pg-boss was not loaded at boot');
        return pgBoss({
          connectionString: config.databaseUrl,
          timeouts: config.databaseTimeouts,
          work: ctx.get<SchedulerWork>(TOKENS.SchedulerWork),
          logger: ctx.get<Logger>(TOKENS.Logger),
        });
      })
      .inSingletonScope();
    bind(InProcessDispatcher)
      .toDynamicValue(
        (ctx) =>
          new InProcessDispatcher(
            (runId) => ctx.get<SchedulerWork>(TOKENS.SchedulerWork).executeRun(runId),
            IN_PROCESS_RUNS,
            ctx.get<Logger>(TOKENS.Logger),
          ),
      )
      .inSingletonScope();
    bind<RunDispatcher>(TOKENS.RunDispatcher)
      .toDynamicValue((ctx) =>
        schedulerKind(ctx.get<PorterConfig>(TOKENS.Config)) === 'pg-boss'
          ? ctx.get<BackgroundScheduler & RunDispatcher>(PG_BOSS)
          : ctx.get(InProcessDispatcher),
      )
      .inSingletonScope();

    bind<BackgroundScheduler>(TOKENS.Background).toDynamicValue((ctx) => {
      const config = ctx.get<PorterConfig>(TOKENS.Config);
      const kind = schedulerKind(config);
      if (kind === 'pg-boss') return ctx.get<BackgroundScheduler & RunDispatcher>(PG_BOSS);
      if (kind === 'interval')
        return new IntervalTicker(
          ctx.get<SchedulerWork>(TOKENS.SchedulerWork),
          config.tickIntervalSeconds * 1000,
          ctx.get<Logger>(TOKENS.Logger),
        );
      return { start: async () => {}, stop: async () => {} };
    });
    // Stopped after the ticker: no new runs are taken, and the ones in flight are let go (their leases lapse).
    bind<BackgroundScheduler>(TOKENS.Background).toDynamicValue((ctx) => ({
      start: async () => {},
      stop: async () => {
        ctx.get<ExecuteRun>(TOKENS.ExecuteRun).close();
        await ctx.get(InProcessDispatcher).stop();
      },
    }));
  });
}
