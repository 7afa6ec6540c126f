import { PgBoss } from 'pg-boss';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { get } from '../../composition/tokens.js';
import { AUTOMATION_TOKENS } from '../../composition/modules/automations-tokens.js';
import { TICK_TOKENS } from '../../composition/modules/tick-tokens.js';
import { containerOf } from '../../composition/porter-container.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import type { Figure, BenchResult } from '../support/harness.js';
import { benchDatabaseOrSkip } from '../support/postgres-database.js';
import { everyRun } from '../../test/support/every-run.js';

const AUTOMATIONS = 200;
/** Every 15 s: four slots in a minute, and an instance closed after the second. */
const EVERY_SECONDS = 15;
/** Each run answers slowly, over 2 s (the model's stream), as in the soak. */
const RUN_SECONDS = 2;
/** Room on each instance: 200 two-second runs start at once on two instances, as well as three. */
const RUN_CONCURRENCY = 100;
const CRON = `*/${EVERY_SECONDS} * * * * *`;
const SLOTS = 4;
/** The external cron's period in the external-tick row (the soak called every 10 s). */
const EXTERNAL_TICK_MS = 5_000;
const TICK_SECRET = 'a-tick-secret-for-the-bench-0123456789';
const ada = { subject: 'ada', kind: 'user' };
const GOAL_MS = 2_000;

type Mode = 'interval' | 'pg-boss' | 'external';

/**
 * bench/scheduler slot-start: 200 automations due every 15 s on three Porter instances (in one
 * process) sharing one PostgreSQL, each run a 2-second model answer, `runConcurrency: 100`, four
 * slots, one instance closed right after the second slot fired (its runs in flight are put back
 * in the queue for the others and its ticker and workers stop; not a `kill -9`). Figure: slot to start (the run's first
 * attempt began) over every run, p50 and p95, for the built-in ticker (`interval`), pg-boss and an
 * external cron calling `POST /tick` every 5 s on one live instance. Anchor, in the same run: bare
 * pg-boss on three instances, 200 jobs sent at each slot instant by a timer and taken by `work()`
 * (100 a fetch, the queue's NOTIFY on, each job 2 s), send to handler start.
 */
export async function run(): Promise<BenchResult[]> {
  const anchor = await barePgBoss();
  if (!anchor) return [];
  const results: BenchResult[] = [];
  for (const mode of ['interval', 'pg-boss', 'external'] as const) {
    const measured = await slotToStart(mode);
    if (!measured) continue;
    const goalMs = mode === 'external' ? EXTERNAL_TICK_MS : GOAL_MS;
    results.push({
      name: `postgresql: ${AUTOMATIONS} runs a slot, 3 instances, one closed mid-way, scheduler ${mode}`,
      subject: `slot to start, ${measured.runs} runs (${measured.missing} missing, ${measured.doubled} doubled)`,
      figure: measured.figure,
      anchor: { name: `bare pg-boss send/work, ${anchor.jobs} jobs, p95 ${ms(anchor.p95)}`, figure: anchor.figure },
      goal: 0,
      absoluteGoal: {
        met: measured.p95 <= goalMs && measured.missing === 0 && measured.doubled === 0,
        text: `p95 ${ms(measured.p95)}; goal ≤ ${ms(goalMs)}${mode === 'external' ? ' (one tick)' : ''}, none missing or doubled`,
      },
    });
  }
  return results;
}

async function slotToStart(mode: Mode): Promise<{ figure: Figure; p95: number; runs: number; missing: number; doubled: number } | null> {
  const database = await benchDatabaseOrSkip('scheduler slot-start');
  if (!database) return null;
  const instances: Porter[] = [];
  const closed = new Set<number>();
  let ticker: NodeJS.Timeout | null = null;
  try {
    for (let i = 0; i < 3; i++)
      instances.push(
        await createPorter(
          {
            development: false,
            secret: 'a-production-secret-for-the-bench-0123456789',
            databaseUrl: database.url,
            tickSecret: TICK_SECRET,
            scheduler: mode,
            model: new ScriptedLanguageModel(),
            runConcurrency: RUN_CONCURRENCY,
            breakers: false,
            logger: 'silent',
          },
          {},
        ),
      );
    const automations = get(containerOf(instances[0]!), AUTOMATION_TOKENS.AutomationUseCases);
    for (let i = 0; i < AUTOMATIONS; i++) {
      const created = await automations.createAutomation.execute({
        principal: ada,
        name: `report ${i}`,
        trigger: { kind: 'schedule', cron: CRON },
        task: { prompt: `/slow ${RUN_SECONDS} report ${i} is ready` },
      });
      await automations.armAutomation.execute({ principal: ada, automationId: created.id });
    }
    const period = EVERY_SECONDS * 1000;
    const first = Math.ceil((Date.now() + 500) / period) * period;
    const slots = Array.from({ length: SLOTS }, (_, i) => new Date(first + i * period).toISOString());
    if (mode === 'external') {
      // An external cron on its own phase, reaching one live instance each time.
      let next = 0;
      ticker = setInterval(() => {
        const live = [0, 1, 2].filter((i) => !closed.has(i));
        const target = instances[live[next++ % live.length]!]!;
        void get(containerOf(target), TICK_TOKENS.TickUseCases)
          .tick.execute({ bearer: TICK_SECRET })
          .catch(() => undefined);
      }, EXTERNAL_TICK_MS);
    }
    // The second slot fires, then instance 2 goes away with its runs in flight.
    await sleepUntil(first + period + 300);
    closed.add(2);
    await instances[2]!.close();
    await sleepUntil(first + (SLOTS - 1) * period + 8_000);
    if (ticker) clearInterval(ticker);

    const all = await everyRun(instances[0]!, ada);
    const inSlots = all.filter((run) => run.cause.kind === 'schedule' && slots.includes(run.cause.slot));
    const perSlot = new Map<string, number>();
    for (const run of inSlots) {
      const key = `${run.automationId} ${run.cause.kind === 'schedule' ? run.cause.slot : ''}`;
      perSlot.set(key, (perSlot.get(key) ?? 0) + 1);
    }
    const doubled = [...perSlot.values()].filter((count) => count > 1).length;
    const missing = AUTOMATIONS * SLOTS - perSlot.size;
    // A run never started counts as late as the measurement lasted.
    const end = Date.now();
    const delays = inSlots.map((run) => {
      const began = run.attempts[0]?.startedAt ?? run.startedAt;
      const slot = run.cause.kind === 'schedule' ? Date.parse(run.cause.slot) : end;
      return (began ? Date.parse(began) : end) - slot;
    });
    for (let i = 0; i < missing; i++) delays.push(end - first);
    return { ...figureOf(delays), runs: inSlots.length, missing, doubled };
  } finally {
    if (ticker) clearInterval(ticker);
    for (const [i, porter] of instances.entries()) if (!closed.has(i)) await porter.close().catch(() => undefined);
    await database.drop();
  }
}

/** Bare pg-boss: three instances, `work()` with 4 at a time each, 200 jobs sent at every slot instant. */
async function barePgBoss(): Promise<{ figure: Figure; p95: number; jobs: number } | null> {
  const database = await benchDatabaseOrSkip('scheduler slot-start');
  if (!database) return null;
  const bosses = [0, 1, 2].map(() => new PgBoss({ connectionString: database.url, schema: 'pgboss_bench' }));
  const delays: number[] = [];
  try {
    for (const boss of bosses) await boss.start();
    await bosses[0]!.createQueue('slot', { notify: true });
    for (const boss of bosses)
      await boss.work<{ sentAt: number }>('slot', { batchSize: RUN_CONCURRENCY }, async (jobs) => {
        const now = Date.now();
        for (const job of jobs) delays.push(now - job.data.sentAt);
        await new Promise((resolve) => setTimeout(resolve, RUN_SECONDS * 1000));
      });
    const period = EVERY_SECONDS * 1000;
    const first = Math.ceil((Date.now() + 500) / period) * period;
    for (let i = 0; i < SLOTS; i++) {
      await sleepUntil(first + i * period);
      const sentAt = Date.now();
      await bosses[i % 3]!.insert(
        'slot',
        Array.from({ length: AUTOMATIONS }, () => ({ data: { sentAt } })),
      );
    }
    await sleepUntil(first + (SLOTS - 1) * period + 8_000);
    return { ...figureOf(delays), jobs: delays.length };
  } finally {
    for (const boss of bosses) await boss.stop({ graceful: false }).catch(() => undefined);
    await database.drop();
  }
}

function figureOf(delaysMs: number[]): { figure: Figure; p95: number } {
  const sorted = [...delaysMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    figure: { opsPerSecond: 0, p50Micros: at(0.5) * 1000, p99Micros: at(0.99) * 1000, operations: sorted.length },
    p95: at(0.95),
  };
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
}
