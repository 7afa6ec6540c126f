import { expect } from 'chai';
import { PgBoss } from 'pg-boss';
import { createPorter, type Porter } from '../../../composition/create-porter.js';
import { get } from '../../../composition/tokens.js';
import { AUTOMATION_TOKENS } from '../../../composition/modules/automations-tokens.js';
import { RUN_TOKENS } from '../../../composition/modules/runs-tokens.js';
import { TICK_TOKENS } from '../../../composition/modules/tick-tokens.js';
import { PgBossScheduler, RUN_QUEUE, TICK_QUEUE, WEBHOOK_QUEUE } from '../../../adapters/scheduler/pg-boss-scheduler.js';
import { RecordingLogger } from '../../support/fakes.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';
import { containerOf } from '../../../composition/porter-container.js';

const TICK_SECRET = 'a-postgres-tick-secret-0123';
const ada = { subject: 'ada', kind: 'user' };

/** Midnight on the first of January. */
const YEARLY = '0 0 1 1 *';

describe('The scheduler on PostgreSQL, several instances', function () {
  this.timeout(60_000);
  let database: TestDatabase | null = null;

  before(async function () {
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    database = await createTestDatabase(server);
  });

  after(async () => {
    await database?.drop();
  });

  it('three Porter compositions on one PostgreSQL fire every due slot exactly once, however their ticks race', async () => {
    const instances: Porter[] = [];
    for (let i = 0; i < 3; i++) {
      instances.push(
        await createPorter(
          {
            development: false,
            secret: 'a-production-secret-for-the-tests-0123456789',
            databaseUrl: database!.url,
            tickSecret: TICK_SECRET,
            scheduler: 'external',
            logger: 'silent',
          },
          {},
        ),
      );
    }
    try {
      const automations = get(containerOf(instances[0]!), AUTOMATION_TOKENS.AutomationUseCases);
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const created = await automations.createAutomation.execute({
          principal: ada,
          name: `every second ${i}`,
          trigger: { kind: 'schedule', cron: '* * * * * *' },
          task: { prompt: `hello ${i}` },
        });
        await automations.armAutomation.execute({ principal: ada, automationId: created.id });
        ids.push(created.id);
      }
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const ticks = instances.flatMap((porter) => {
        const tick = get(containerOf(porter), TICK_TOKENS.TickUseCases).tick;
        return Array.from({ length: 4 }, () => tick.execute({ bearer: TICK_SECRET }));
      });
      const started = (await Promise.all(ticks)).flatMap((answer) => answer.runIds);
      expect(new Set(started).size, 'a slot fired twice').to.equal(started.length);

      const runs = get(containerOf(instances[2]!), RUN_TOKENS.RunUseCases);
      const stored = (await runs.listRuns.execute({ principal: ada, limit: 100 })).runs;
      expect(stored.map((run) => run.id).sort()).to.deep.equal([...started].sort());
      const perSlot = new Map<string, number>();
      for (const run of stored) {
        const key = `${run.automationId}@${run.cause.kind === 'schedule' ? run.cause.slot : ''}`;
        perSlot.set(key, (perSlot.get(key) ?? 0) + 1);
      }
      expect([...perSlot.values()].every((count) => count === 1)).to.equal(true);
      // No misses: every armed automation fired for the slot that was due.
      expect(new Set(stored.map((run) => run.automationId))).to.deep.equal(new Set(ids));
    } finally {
      for (const porter of instances) await porter.close();
    }
  });

  it('pg-boss: runs dispatched from one instance are executed exactly once across three, and a tick job ticks once', async () => {
    const executed: Array<{ instance: number; runId: string }> = [];
    const ticked: number[] = [];
    const schedulers = [0, 1, 2].map(
      (instance) =>
        new PgBossScheduler({
          connectionString: database!.url,
          schema: 'pgboss_test',
          // A backstop cron that cannot fire during the test: a minute's start crossed mid-test would tick twice.
          tickCron: YEARLY,
          pollingIntervalSeconds: 0.5,
          concurrency: 2,
          logger: new RecordingLogger(),
          work: {
            tick: async () => {
              ticked.push(instance);
              return { runIds: [] };
            },
            executeRun: async (runId) => {
              executed.push({ instance, runId });
              // Long enough that one instance alone needs seconds for all 120: the others poll meanwhile.
              await new Promise((resolve) => setTimeout(resolve, 50));
            },
            deliverWebhook: async () => {},
          },
        }),
    );
    try {
      for (const scheduler of schedulers) await scheduler.start();
      const runIds = Array.from({ length: 120 }, (_, i) => `run_test${String(i).padStart(10, '0')}`);
      await schedulers[0]!.dispatch(runIds);
      await schedulers[1]!.tickNow();
      expect(
        await eventually(() => executed.length >= runIds.length && ticked.length >= 1, 20_000),
        'every run executed and the tick ran',
      ).to.equal(true);
      // Kept: a window for a duplicate to show up (a run executed twice, a second tick); three pollers at 0.5 s.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(executed.map((e) => e.runId).sort()).to.deep.equal(runIds);
      expect(new Set(executed.map((e) => e.instance)).size, 'work was spread over the instances').to.be.greaterThan(1);
      expect(ticked).to.have.length(1);

      const boss = new PgBoss({ connectionString: database!.url, schema: 'pgboss_test' });
      await boss.start();
      try {
        const schedules = await boss.getSchedules();
        expect(schedules.map((s) => [s.name, s.cron])).to.deep.include([TICK_QUEUE, YEARLY]);
        expect(await boss.getQueue(RUN_QUEUE)).to.not.equal(null);
      } finally {
        await boss.stop({ graceful: false });
      }
    } finally {
      for (const scheduler of schedulers) await scheduler.stop();
    }
  });

  it('pg-boss: a retry is held until its time, survives the instance that scheduled it, and completion webhooks go on their own queue', async () => {
    const executed: Array<{ instance: number; runId: string; at: number }> = [];
    const delivered: Array<{ instance: number; webhookId: string }> = [];
    const schedulerOf = (instance: number) =>
      new PgBossScheduler({
        connectionString: database!.url,
        schema: 'pgboss_later',
        pollingIntervalSeconds: 0.5,
        logger: new RecordingLogger(),
        work: {
          tick: async () => ({ runIds: [] }),
          executeRun: async (runId) => void executed.push({ instance, runId, at: Date.now() }),
          deliverWebhook: async (webhookId) => void delivered.push({ instance, webhookId }),
        },
      });
    const first = schedulerOf(0);
    const second = schedulerOf(1);
    try {
      await first.start();
      const due = Date.now() + 2_000;
      await first.dispatch(['run_retrylater0001'], new Date(due));
      await first.webhooks.dispatch(['evt_retrylater0001'], new Date(due));
      await first.webhooks.dispatch(['evt_rightaway00001']);
      // The instance that scheduled the retry stops; another one, started later, carries it out.
      await first.stop();
      await second.start();
      expect(
        await eventually(() => executed.length === 1 && delivered.length === 2, 15_000),
        'the retry and both webhooks were handed over',
      ).to.equal(true);
      expect(executed[0]).to.deep.include({ instance: 1, runId: 'run_retrylater0001' });
      expect(executed[0]!.at, 'not before its backoff').to.be.at.least(due - 50);
      expect(delivered.map((d) => d.webhookId).sort()).to.deep.equal(['evt_retrylater0001', 'evt_rightaway00001']);
      const boss = new PgBoss({ connectionString: database!.url, schema: 'pgboss_later' });
      await boss.start();
      try {
        expect(await boss.getQueue(WEBHOOK_QUEUE)).to.not.equal(null);
      } finally {
        await boss.stop({ graceful: false });
      }
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
