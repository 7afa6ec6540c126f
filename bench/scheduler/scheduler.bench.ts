import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../adapters/store/open-store.js';
import { CronerCalendar } from '../../adapters/scheduler/croner-calendar.js';
import { UlidIds } from '../../adapters/runtime/ulid-ids.js';
import { AuditTrail } from '../../application/audit/audit-trail.js';
import type { AutomationBook } from '../../application/automations/automation-book.js';
import { Tick } from '../../application/scheduler/tick.js';
import { Automation } from '../../domain/automations/automation.js';
import type { StoredRunPrimitives } from '../../domain/runs/run.js';
import type { Clock } from '../../ports/clock.js';
import type { RunDispatcher } from '../../ports/scheduler.js';
import type { Store } from '../../ports/store.js';
import { timeOnce, type BenchResult } from '../support/harness.js';
import { benchDatabaseOrSkip } from '../support/postgres-database.js';
import { runMachinery } from '../../test/support/run-machinery.js';

const quiet = { info() {}, warn() {}, error() {} };

/** A clock the bench sets: ticks happen at a chosen instant. */
class SetClock implements Clock {
  constructor(public at: number) {}
  now(): Date {
    return new Date(this.at);
  }
}

/** Records what it was handed: "started" is written queued and handed over; execution is not timed. */
class CountingDispatcher implements RunDispatcher {
  handed = 0;
  async dispatch(runIds: ReadonlyArray<string>): Promise<void> {
    this.handed += runIds.length;
  }
}

/** Every due pattern a real deployment mixes, all due at :00 of an hour (UTC and two zones). */
const PATTERNS: ReadonlyArray<{ cron: string; timezone?: string }> = [
  { cron: '* * * * *' },
  { cron: '*/5 * * * *' },
  { cron: '0 * * * *' },
  { cron: '0 */2 * * *', timezone: 'UTC' },
  { cron: '*/15 * * * *', timezone: 'Europe/Paris' },
  { cron: '0 * * * *', timezone: 'America/New_York' },
];

function instance(store: Store, clock: Clock) {
  const ids = new UlidIds();
  const dispatcher = new CountingDispatcher();
  const audit = new AuditTrail({ sink: { write: async () => {} }, ids, clock, logger: quiet });
  const { automations, starts, sweep } = runMachinery({
    store,
    clock,
    ids,
    audit,
    logger: quiet,
    dispatcher,
    webhookDispatcher: dispatcher,
  });
  return {
    ids,
    automations,
    dispatcher,
    tick: new Tick({ automations, calendar: new CronerCalendar(), starts, sweep, clock, logger: quiet }),
  };
}

async function seed(automations: AutomationBook, ids: UlidIds, count: number, armedAt: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const pattern = PATTERNS[i % PATTERNS.length]!;
    const trigger = { kind: 'schedule' as const, cron: pattern.cron, ...(pattern.timezone ? { timezone: pattern.timezone } : {}) };
    const automation = Automation.create({
      id: ids.mint('automation'),
      name: `bench ${i}`,
      trigger,
      task: { prompt: `report ${i}` },
      owner: { subject: `user-${i % 50}`, kind: 'user' },
      now: armedAt,
    });
    await automations.save(automation.arm(armedAt));
  }
}

/**
 * bench/scheduler: (1) 10,000 armed automations, all due: one tick claims every slot and starts
 * its run (written queued, handed to the dispatcher), on a SQLite file — goal under 2 s; beside it,
 * the floor: the same store doing 10,000 bare insert-if-absent writes of run-sized records.
 * (2) three instances (three stores, three pools) ticking one PostgreSQL at once for 1,000 due
 * slots — goal 0 duplicates and 0 misses; beside it, one instance ticking 1,000 slots alone.
 */
export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const folder = await mkdtemp(join(tmpdir(), 'porter-bench-scheduler-'));
  const armedAt = Date.parse('2026-06-01T11:00:00.000Z');
  const dueAt = Date.parse('2026-06-01T12:00:20.000Z');
  try {
    const clock = new SetClock(armedAt);
    const store = await openStore(`sqlite:${join(folder, 'scheduler.db')}`, { clock });
    try {
      const one = instance(store, clock);
      await seed(one.automations, one.ids, 10_000, new Date(armedAt).toISOString());
      clock.at = dueAt;
      const tick = await timeOnce(() => one.tick.execute());
      const floorSet = store.records<StoredRunPrimitives>('bench-floor');
      const sample = (await store.records<StoredRunPrimitives>('runs').list({ limit: 1 })).items[0]!.data;
      const floor = await timeOnce(async () => {
        for (let i = 0; i < 10_000; i++)
          await floorSet.atomic!.insertIfAbsent({
            id: `floor_${i}`,
            data: sample,
            refs: { automation: sample.automationId, owner: sample.owner.subject, state: 'queued' },
          });
      });
      const seconds = tick.figure.p50Micros / 1e6;
      results.push({
        name: 'sqlite file: one tick, 10,000 due',
        subject: `Tick (${tick.value.runIds.length} runs started, ${one.dispatcher.handed} handed over)`,
        figure: tick.figure,
        anchor: { name: '10,000 bare insertIfAbsent', figure: floor.figure },
        goal: 0,
        absoluteGoal: {
          met: seconds < 2 && tick.value.runIds.length === 10_000,
          text: `${seconds.toFixed(2)} s; goal < 2 s with all 10,000 started`,
        },
      });
    } finally {
      await store.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }

  const database = await benchDatabaseOrSkip('scheduler');
  if (!database) return results;
  try {
    const clocks = [0, 1, 2].map(() => new SetClock(armedAt));
    const stores = await Promise.all(clocks.map((clock) => openStore(database.url, { clock })));
    try {
      const instances = stores.map((store, i) => instance(store, clocks[i]!));
      await seed(instances[0]!.automations, instances[0]!.ids, 1_000, new Date(armedAt).toISOString());
      for (const clock of clocks) clock.at = dueAt;
      const race = await timeOnce(async () =>
        (await Promise.all(instances.flatMap((one) => [one.tick.execute(), one.tick.execute()]))).flatMap((answer) => answer.runIds),
      );
      const started = race.value;
      const unique = new Set(started).size;
      const duplicates = started.length - unique;
      const misses = 1_000 - unique;
      // The anchor: the next hour's 1,000 slots claimed by one instance alone.
      for (const clock of clocks) clock.at = dueAt + 60 * 60_000;
      const alone = await timeOnce(() => instances[0]!.tick.execute());
      results.push({
        name: 'postgresql: 3 instances race 1,000 slots',
        subject: `3 instances × 2 ticks (${unique} runs)`,
        figure: race.figure,
        anchor: { name: `1 instance alone (${alone.value.runIds.length} runs)`, figure: alone.figure },
        goal: 0,
        absoluteGoal: { met: duplicates === 0 && misses === 0, text: `${duplicates} duplicates, ${misses} misses; goal 0 and 0` },
      });
    } finally {
      for (const store of stores) await store.close();
    }
  } finally {
    await database.drop();
  }
  return results;
}
