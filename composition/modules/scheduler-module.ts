import type { ContainerModule } from 'inversify';
import { get, porterModule, token, TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { BackgroundScheduler, RunDispatcher, WebhookDispatcher } from '../../ports/scheduler.js';
import { InProcessDispatcher } from '../../adapters/scheduler/in-process-dispatcher.js';
import { IntervalTicker } from '../../adapters/scheduler/interval-ticker.js';
import type { PgBossFactory } from '../integrations/load-integrations.js';

/** Runs one instance executes at once with the in-process dispatcher. */
export const IN_PROCESS_RUNS = 4;
/** Completion webhooks one instance sends at once with the in-process dispatcher. */
export const IN_PROCESS_WEBHOOKS = 2;

/** Which scheduler a configuration gets: as configured, else interval in development and external in production. */
export function schedulerKind(config: PorterConfig): 'interval' | 'external' | 'pg-boss' {
  return config.scheduler ?? (config.development ? 'interval' : 'external');
}

/** The pg-boss scheduler's binding (resolved only with `scheduler: 'pg-boss'`). */
const PG_BOSS = token<BackgroundScheduler & RunDispatcher & { readonly webhooks: WebhookDispatcher }>('PgBossScheduler');
/** The in-process dispatcher (runs executed here), whichever mode drives the ticks. */
const IN_PROCESS = token<InProcessDispatcher>('InProcessDispatcher');
/** Completion webhooks sent from this process (without pg-boss). */
const IN_PROCESS_SENDER = token<InProcessDispatcher>('InProcessWebhookDispatcher');

/**
 * What drives ticks and where runs execute. `interval`: an in-process ticker, runs executed here.
 * `external`: only `POST /tick` (an external cron) drives ticks, runs executed here. `pg-boss`: a
 * pg-boss cron schedule drives ticks once a minute for the whole cluster and runs are pg-boss jobs
 * any instance executes (pg-boss itself is loaded at boot, only then). `POST /tick` answers in every mode.
 */
export function schedulerModule(pgBoss: PgBossFactory | null): ContainerModule {
  return porterModule((bind) => {
    bind.singleton(PG_BOSS, (ctx) => {
      const config = get(ctx, TOKENS.Config);
      if (!pgBoss) throw new Error('pg-boss was not loaded at boot');
      return pgBoss({
        connectionString: config.databaseUrl,
        timeouts: config.databaseTimeouts,
        work: get(ctx, TOKENS.SchedulerWork),
        logger: get(ctx, TOKENS.Logger),
      });
    });
    bind.singleton(
      IN_PROCESS,
      (ctx) =>
        new InProcessDispatcher((runId) => get(ctx, TOKENS.SchedulerWork).executeRun(runId), IN_PROCESS_RUNS, get(ctx, TOKENS.Logger)),
    );
    bind.singleton(TOKENS.RunDispatcher, (ctx) =>
      schedulerKind(get(ctx, TOKENS.Config)) === 'pg-boss' ? get(ctx, PG_BOSS) : get(ctx, IN_PROCESS),
    );
    bind.singleton(
      IN_PROCESS_SENDER,
      (ctx) =>
        new InProcessDispatcher(
          (webhookId) => get(ctx, TOKENS.SchedulerWork).deliverWebhook(webhookId),
          IN_PROCESS_WEBHOOKS,
          get(ctx, TOKENS.Logger),
          'a completion webhook',
        ),
    );
    bind.singleton(TOKENS.WebhookDispatcher, (ctx) =>
      schedulerKind(get(ctx, TOKENS.Config)) === 'pg-boss' ? get(ctx, PG_BOSS).webhooks : get(ctx, IN_PROCESS_SENDER),
    );

    bind(TOKENS.Background).toDynamicValue((ctx) => {
      const config = get(ctx, TOKENS.Config);
      const kind = schedulerKind(config);
      if (kind === 'pg-boss') return get(ctx, PG_BOSS);
      if (kind === 'interval')
        return new IntervalTicker(get(ctx, TOKENS.SchedulerWork), config.tickIntervalSeconds * 1000, get(ctx, TOKENS.Logger));
      return { start: async () => {}, stop: async () => {} };
    });
    // Stopped after the ticker: no new runs are taken, and the ones in flight are let go (their leases lapse).
    bind(TOKENS.Background).toDynamicValue((ctx) => ({
      start: async () => {},
      stop: async () => {
        get(ctx, TOKENS.ExecuteRun).close();
        await get(ctx, IN_PROCESS).stop();
        await get(ctx, IN_PROCESS_SENDER).stop();
      },
    }));
  });
}
