import { get, porterModule, TOKENS } from '../tokens.js';
import { TracedTick } from '../../application/scheduler/traced-tick.js';
import { AuthorizedTick } from '../../application/scheduler/authorized-tick.js';
import { CronerCalendar } from '../../adapters/scheduler/croner-calendar.js';
import { tickRoutes } from '../../adapters/http/routes/tick-routes.js';
import { RUN_TOKENS } from './runs-module.js';

/**
 * The tick: the schedules' due slots started as runs, the crash sweep and due deletions, and
 * `POST /tick`. What drives it is the scheduler module's choice; SchedulerWork is what it drives.
 */
export const tickModule = porterModule((bind) => {
  bind(TOKENS.CronCalendar).toConstantValue(new CronerCalendar());
  bind.singleton(TOKENS.Tick, (ctx) => {
    return new TracedTick(get(ctx, TOKENS.Telemetry), {
      automations: get(ctx, TOKENS.AutomationBook),
      calendar: get(ctx, TOKENS.CronCalendar),
      starts: get(ctx, TOKENS.StartRuns),
      sweep: get(ctx, RUN_TOKENS.SweepRuns),
      deletions: get(ctx, TOKENS.PurgeDueDeletions),
      clock: get(ctx, TOKENS.Clock),
      logger: get(ctx, TOKENS.Logger),
    });
  });
  bind.singleton(TOKENS.SchedulerWork, (ctx) => ({
    tick: () => get(ctx, TOKENS.Tick).execute(),
    executeRun: (runId: string) => get(ctx, TOKENS.ExecuteRun).execute(runId),
    deliverWebhook: (webhookId: string) => get(ctx, TOKENS.DeliverCompletionWebhook).execute(webhookId),
  }));
  bind.singleton(TOKENS.TickUseCases, (ctx) => ({
    tick: new AuthorizedTick(get(ctx, TOKENS.Tick), get(ctx, TOKENS.Config).tickSecret ?? null),
  }));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => tickRoutes(get(ctx, TOKENS.TickUseCases)));
});
