import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { Figure, BenchResult } from '../support/harness.js';
import { benchDatabaseOrSkip } from '../support/postgres-database.js';
import type { SlotInstanceAnswer, SlotInstanceAsk, SlotInstanceOptions, SlotInstanceRun } from './slot-instance.js';

const INSTANCE = fileURLToPath(new URL('./slot-instance.ts', import.meta.url));
const AUTOMATIONS = 200;
/** Every 15 s: four slots in a minute, and an instance killed after the second. */
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
const GOAL_MS = 2_000;
/** How long after the measurement the runs still in flight (slow on a loaded machine) are waited for. */
const ENDING_WITHIN_MS = 60_000;

type Mode = 'interval' | 'pg-boss' | 'external';

/**
 * bench/scheduler slot-start: 200 automations due every 15 s on three Porter instances, each its
 * own process, sharing one PostgreSQL, each run a 2-second model answer, `runConcurrency: 100`,
 * four slots, one instance killed outright (SIGKILL) 300 ms after the second slot fired (or, on a
 * loaded machine, as soon as runs are running): the one executing the most of them, since two
 * instances have room for a whole slot and the third may hold none. Nothing is put back: the
 * survivors must see it gone (its liveness session ended) and take its runs on. Figure: slot to start (the run's first attempt began) over every run, p50 and
 * p95, for the built-in ticker (`interval`), pg-boss and an external cron calling the tick every
 * 5 s on one live instance (for that one, also from the cron's first call at or after the slot, the
 * soonest such a run can start: the goal there); beside it the killed instance's runs, how soon after the kill each
 * began again on a survivor, and how many runs completed. Anchor, in the same run: bare pg-boss
 * on three instances (in this process), 200 jobs sent at each slot instant by a timer and taken by
 * `work()` (100 a fetch, the queue's NOTIFY on, each job 2 s), send to handler start.
 * PORTER_BENCH_SLOT_MODES (e.g. `pg-boss,external`) measures only those modes.
 */
export async function run(): Promise<BenchResult[]> {
  const anchor = await barePgBoss();
  if (!anchor) return [];
  const results: BenchResult[] = [];
  for (const mode of modes()) {
    const measured = await slotToStart(mode);
    if (!measured) continue;
    // An external cron's slot can start no sooner than the cron's first call after it: "within one
    // tick" is within the start goal of that call (its phase against the slots is the cron's own).
    const judged = measured.afterTickP95 ?? measured.p95;
    const expected = AUTOMATIONS * SLOTS;
    const taken = measured.takenOn;
    results.push({
      name: `postgresql: ${AUTOMATIONS} runs a slot, 3 instances, one killed mid-way, scheduler ${mode}`,
      subject:
        `slot to start, ${measured.completed} of ${expected} runs completed (${measured.missing} missing, ${measured.doubled} doubled); ` +
        `killed instance's ${taken.runs} in flight began again ${ms(taken.p50)} p50, ${ms(taken.max)} max after the kill, ${taken.completed} completed`,
      figure: measured.figure,
      anchor: { name: `bare pg-boss send/work, ${anchor.jobs} jobs, p95 ${ms(anchor.p95)}`, figure: anchor.figure },
      goal: 0,
      absoluteGoal: {
        // A kill that caught no run in flight shows nothing about taking runs on: not met.
        met:
          judged <= GOAL_MS &&
          measured.missing === 0 &&
          measured.doubled === 0 &&
          measured.completed === expected &&
          taken.runs > 0 &&
          taken.completed === taken.runs,
        text:
          measured.afterTickP95 === undefined
            ? `p95 ${ms(measured.p95)}; goal ≤ ${ms(GOAL_MS)}, all completed, none missing or doubled`
            : `p95 ${ms(measured.p95)} from the slot, ${ms(measured.afterTickP95)} from the first tick after it (ticks every ${ms(EXTERNAL_TICK_MS)}); ` +
              `goal ≤ ${ms(GOAL_MS)} from that tick (within one tick), all completed, none missing or doubled`,
      },
    });
  }
  return results;
}

interface Measured {
  readonly figure: Figure;
  readonly p95: number;
  /** External cron only: p95 from the first tick at or after each run's slot to its start. */
  readonly afterTickP95?: number;
  readonly runs: number;
  readonly completed: number;
  readonly missing: number;
  readonly doubled: number;
  /** The killed instance's runs in flight, and how soon after the kill each began again on a survivor. */
  readonly takenOn: { readonly runs: number; readonly p50: number; readonly max: number; readonly completed: number };
}

async function slotToStart(mode: Mode): Promise<Measured | null> {
  const database = await benchDatabaseOrSkip('scheduler slot-start');
  if (!database) return null;
  const instances: SlotInstance[] = [];
  const killed = new Set<number>();
  let ticker: NodeJS.Timeout | null = null;
  /** When the external cron called, in order. */
  const ticks: number[] = [];
  try {
    const options: SlotInstanceOptions = {
      databaseUrl: database.url,
      scheduler: mode,
      tickSecret: TICK_SECRET,
      runConcurrency: RUN_CONCURRENCY,
    };
    for (let i = 0; i < 3; i++) instances.push(await startInstance(options));
    await instances[0]!.ask(
      { ask: 'setup', automations: AUTOMATIONS, cron: CRON, prompt: `/slow ${RUN_SECONDS} report {i} is ready` },
      'setup',
    );
    const period = EVERY_SECONDS * 1000;
    const first = Math.ceil((Date.now() + 500) / period) * period;
    const slots = Array.from({ length: SLOTS }, (_, i) => new Date(first + i * period).toISOString());
    if (mode === 'external') {
      // An external cron on its own phase, reaching one live instance each time.
      let next = 0;
      ticker = setInterval(() => {
        ticks.push(Date.now());
        const live = [0, 1, 2].filter((i) => !killed.has(i));
        instances[live[next++ % live.length]!]!.tell({ ask: 'tick' });
      }, EXTERNAL_TICK_MS);
    }
    // The second slot fires, then the instance executing the most of its runs is killed outright (SIGKILL).
    await sleepUntil(first + period + 300);
    const victim = await busiest(database.url, instances);
    killed.add(victim);
    const killedAt = await instances[victim]!.kill();
    await sleepUntil(first + (SLOTS - 1) * period + 8_000);
    if (ticker) clearInterval(ticker);

    // Runs that started in time may end late on a loaded machine: wait (a while) for them to end.
    const reporter = instances[killed.has(0) ? 1 : 0]!;
    const inTheSlots = (runs: SlotInstanceRun[]) => runs.filter((run) => run.cause.kind === 'schedule' && slots.includes(run.cause.slot));
    let all = await reporter.report();
    for (const until = Date.now() + ENDING_WITHIN_MS; Date.now() < until && inTheSlots(all).some((run) => !run.endedAt);) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      all = await reporter.report();
    }
    const inSlots = inTheSlots(all);
    const perSlot = new Map<string, number>();
    for (const run of inSlots) {
      const key = `${run.automationId} ${run.cause.kind === 'schedule' ? run.cause.slot : ''}`;
      perSlot.set(key, (perSlot.get(key) ?? 0) + 1);
    }
    const doubled = [...perSlot.values()].filter((count) => count > 1).length;
    const missing = AUTOMATIONS * SLOTS - perSlot.size;
    // A run never started counts as late as the measurement lasted.
    const end = first + (SLOTS - 1) * period + 8_000;
    const delays = inSlots.map((run) => {
      const began = run.attempts[0]?.startedAt ?? run.startedAt;
      const slot = run.cause.kind === 'schedule' ? Date.parse(run.cause.slot) : end;
      return (began ? Date.parse(began) : end) - slot;
    });
    for (let i = 0; i < missing; i++) delays.push(end - first);
    const afterTick =
      mode === 'external'
        ? inSlots.map((run) => {
            const slot = run.cause.kind === 'schedule' ? Date.parse(run.cause.slot) : end;
            const tick = ticks.find((at) => at >= slot) ?? end;
            const began = run.attempts[0]?.startedAt ?? run.startedAt;
            return (began ? Date.parse(began) : end) - tick;
          })
        : null;
    // The runs the killed instance was executing: their first attempt ended interrupted.
    const interrupted = inSlots.filter((run) => run.attempts[0]?.outcome === 'interrupted');
    const again = interrupted.map((run) => {
      const next = run.attempts[1]?.startedAt;
      return (next ? Date.parse(next) : end) - killedAt;
    });
    const sortedAgain = [...again].sort((a, b) => a - b);
    return {
      ...figureOf(delays),
      ...(afterTick && { afterTickP95: figureOf([...afterTick, ...Array.from({ length: missing }, () => end - first)]).p95 }),
      runs: inSlots.length,
      completed: inSlots.filter((run) => run.state === 'succeeded').length,
      missing,
      doubled,
      takenOn: {
        runs: interrupted.length,
        p50: sortedAgain[Math.floor(sortedAgain.length / 2)] ?? 0,
        max: sortedAgain[sortedAgain.length - 1] ?? 0,
        completed: interrupted.filter((run) => run.state === 'succeeded').length,
      },
    };
  } finally {
    if (ticker) clearInterval(ticker);
    for (const [i, instance] of instances.entries()) if (!killed.has(i)) await instance.stop();
    await database.drop();
  }
}

/**
 * The instance whose lease is on the most running runs (read from the store's records), as soon
 * as any is running: on a loaded machine the slot's runs may begin later than planned.
 */
async function busiest(url: string, instances: readonly SlotInstance[]): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const until = Date.now() + 10_000; ;) {
      const { rows } = await client.query<{ holder: string; runs: string }>(
        "select data->'lease'->>'holder' as holder, count(*) as runs from porter_records " +
          "where collection = 'runs' and data->>'state' = 'running' group by 1 order by 2 desc",
      );
      const index = instances.findIndex((instance) => instance.holder === rows[0]?.holder);
      if (index >= 0) return index;
      if (Date.now() > until) throw new Error(`no instance is executing runs to kill (${JSON.stringify(rows)})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

/** One instance's process, spoken to over its IPC channel. */
interface SlotInstance {
  /** Who its run leases name. */
  readonly holder: string;
  tell(ask: SlotInstanceAsk): void;
  ask(ask: SlotInstanceAsk, answer: SlotInstanceAnswer['answer']): Promise<SlotInstanceAnswer>;
  report(): Promise<SlotInstanceRun[]>;
  /** SIGKILL; resolves with when it was sent, once the process is gone. */
  kill(): Promise<number>;
  stop(): Promise<void>;
}

async function startInstance(options: SlotInstanceOptions): Promise<SlotInstance> {
  const child = fork(INSTANCE, [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const next = (answer: SlotInstanceAnswer['answer']) =>
    new Promise<SlotInstanceAnswer>((resolve, reject) => {
      const listen = (message: SlotInstanceAnswer) => {
        if (message.answer !== answer && message.answer !== 'failed') return;
        child.off('message', listen);
        if (message.answer === 'failed') reject(new Error(`a slot-start instance failed: ${message.error}`));
        else resolve(message);
      };
      child.on('message', listen);
      void exited.then(() => reject(new Error(`a slot-start instance exited before answering ${answer}`)));
    });
  const ready = await next('ready');
  const tell = (ask: SlotInstanceAsk) => void child.send(ask);
  const ask = (question: SlotInstanceAsk, answer: SlotInstanceAnswer['answer']) => {
    const answered = next(answer);
    tell(question);
    return answered;
  };
  return {
    holder: ready.answer === 'ready' ? ready.holder : '',
    tell,
    ask,
    report: async () => {
      const answered = await ask({ ask: 'report' }, 'report');
      return answered.answer === 'report' ? answered.runs : [];
    },
    kill: async () => {
      const at = Date.now();
      child.kill('SIGKILL');
      await exited;
      return at;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      tell({ ask: 'stop' });
      await exited;
    },
  };
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

function modes(): Mode[] {
  const all: Mode[] = ['interval', 'pg-boss', 'external'];
  const only = process.env.PORTER_BENCH_SLOT_MODES?.split(',');
  return only ? all.filter((mode) => only.includes(mode)) : all;
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
