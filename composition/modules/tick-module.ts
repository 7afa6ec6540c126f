import { get, porterModule, TOKENS } from '../tokens.js';
import { AUTOMATION_TOKENS } from './automations-tokens.js';
import { COMPLETION_WEBHOOK_TOKENS } from './completion-webhooks-tokens.js';
import { DELETION_TOKENS } from './deletions-tokens.js';
import { RUN_TOKENS } from './runs-tokens.js';
import { TICK_TOKENS } from './tick-tokens.js';
import { TracedTick } from '../../application/scheduler/traced-tick.js';
import { AuthorizedTick } from '../../application/scheduler/authorized-tick.js';
import { CronerCalendar } from '../../adapters/scheduler/croner-calendar.js';
import { tickRoutes } from '../../adapters/http/routes/tick-routes.js';

/**
 * The tick: the schedules' due slots started as runs, the crash sweep and due deletions, and
 * `POST /tick`. What drives it is the scheduler module's choice; SchedulerWork is what it drives.
 */
export const tickModule = porterModule((bind) => {
  bind(TICK_TOKENS.CronCalendar).toConstantValue(new CronerCalendar());
  bind.singleton(TICK_TOKENS.Tick, (ctx) => {
    return new TracedTick(get(ctx, TOKENS.Telemetry), {
      automations: get(ctx, AUTOMATION_TOKENS.AutomationBook),
      calendar: get(ctx, TICK_TOKENS.CronCalendar),
      starts: get(ctx, RUN_TOKENS.StartRuns),
      sweep: get(ctx, RUN_TOKENS.SweepRuns),
      deletions: get(ctx, DELETION_TOKENS.PurgeDueDeletions),
      clock: get(ctx, TOKENS.Clock),
      logger: get(ctx, TOKENS.Logger),
    });
  });
  bind.singleton(TICK_TOKENS.SchedulerWork, (ctx) => ({
    tick: () => get(ctx, TICK_TOKENS.Tick).execute(),
    executeRun: (runId: string) => get(ctx, RUN_TOKENS.ExecuteRun).execute(runId),
    deliverWebhook: (webhookId: string) => get(ctx, COMPLETION_WEBHOOK_TOKENS.DeliverCompletionWebhook).execute(webhookId),
  }));
  bind.singleton(TICK_TOKENS.TickUseCases, (ctx) => ({
    tick: new AuthorizedTick(get(ctx, TICK_TOKENS.Tick), get(ctx, TOKENS.Config).tickSecret ?? null),
  }));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => tickRoutes(get(ctx, TICK_TOKENS.TickUseCases)));
});
