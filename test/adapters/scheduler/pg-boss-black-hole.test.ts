import { expect } from 'chai';
import { DomainError } from '../../../domain/errors.js';
import { PgBossScheduler } from '../../../adapters/scheduler/pg-boss-scheduler.js';
import { blackHoleProxy, type BlackHoleProxy } from '../../support/black-hole-proxy.js';
import { until } from '../../support/eventually.js';
import { RecordingLogger } from '../../support/fakes.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';
import { recordUnhandledErrors } from '../../support/unhandled-errors.js';

const TIMEOUTS = { statementMs: 1_000, acquireMs: 1_000 };
const DEADLINE_MS = 1_000;
/** What a send may take past its bound on a loaded machine. */
const SLACK_MS = 1_000;

/** How a send failed and how long it took; 'still waiting' when it had not settled by `limitMs`. */
async function failure(send: Promise<unknown>, limitMs: number): Promise<{ failed: string; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), limitMs)));
  try {
    return { failed: await Promise.race([send.then(() => 'sent'), late]), ms: Date.now() - started };
  } catch (error) {
    return { failed: error instanceof DomainError ? error.code : `a raw ${String(error)}`, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

describe('The pg-boss scheduler behind a black hole (a suspended server, or a network dropping every packet)', function () {
  this.timeout(40_000);
  let database: TestDatabase | null = null;
  let proxy: BlackHoleProxy;
  let scheduler: PgBossScheduler;
  const executed: string[] = [];
  /** What happens to the database while a run executes, by run id. */
  const duringRun = new Map<string, () => void>();
  const logger = new RecordingLogger();
  let unhandled: ReturnType<typeof recordUnhandledErrors>;

  before(async function () {
    const serverUrl = await postgresServerUrl();
    if (!serverUrl) return this.skip();
    database = await createTestDatabase(serverUrl);
    proxy = await blackHoleProxy(database.url);
    scheduler = new PgBossScheduler({
      connectionString: proxy.url,
      schema: 'pgboss_black_hole',
      pollingIntervalSeconds: 0.5,
      // One worker per queue: three polling loops, each holding a connection while it polls.
      concurrency: 1,
      webhookConcurrency: 1,
      timeouts: TIMEOUTS,
      deadlineMs: DEADLINE_MS,
      logger,
      work: {
        tick: async () => ({ runIds: [] }),
        executeRun: async (runId) => {
          executed.push(runId);
          duringRun.get(runId)?.();
        },
        deliverWebhook: async () => {},
      },
    });
    await scheduler.start();
    unhandled = recordUnhandledErrors();
  });

  afterEach(() => proxy?.restore());

  after(async () => {
    unhandled?.stop();
    await scheduler?.stop();
    await proxy?.close();
    await database?.drop();
  });

  it('runs dispatched from requests while nothing answers are refused as unavailable within the timeouts, never with a raw driver error', async () => {
    await scheduler.dispatch(['run_blackhole000001']);
    await until(() => executed.includes('run_blackhole000001'), Boolean, { what: 'the first run executed' });
    proxy.swallow();
    // More sends at once than pg's pool holds (10): some on its open connections, the rest on new ones.
    const bound = TIMEOUTS.statementMs + TIMEOUTS.acquireMs + SLACK_MS;
    const sends = await Promise.all(
      Array.from({ length: 14 }, (_, i) => failure(scheduler.dispatch([`run_blackhole1000${String(i).padStart(2, '0')}`]), bound + 5_000)),
    );
    for (const send of sends) {
      expect(send.failed).to.equal('unavailable');
      expect(send.ms).to.be.below(bound);
    }
  });

  it('after the connections were lost without a word, the workers pick up dispatched runs again by themselves', async () => {
    proxy.swallow();
    // Every worker is waiting on an answer from the server...
    await until(
      () => proxy.held,
      (held) => held >= 3,
      { what: "the three workers' polls held unanswered" },
    );
    // ...and the connections they wait on are lost for good.
    proxy.forget();
    // Sends on such connections give up, and those connections are replaced.
    await until(
      () => failure(scheduler.dispatch(['run_blackhole200001']), 5_000),
      (send) => send.failed === 'sent',
      { what: 'a dispatch to be sent again' },
    );
    await until(() => executed.includes('run_blackhole200001'), Boolean, {
      timeoutMs: DEADLINE_MS + 5_000,
      what: 'a worker to execute the run dispatched after the connections were lost',
    });
  });

  for (const [what, cut] of [
    ['stops answering', () => proxy.swallow()],
    ['goes away', () => proxy.refuse()],
  ] as const) {
    it(`a database that ${what} while a run executes: completing the job fails and is logged, nothing is left unhandled, and the workers go on once it is back`, async () => {
      const runId = `run_cut${what.replaceAll(' ', '')}`;
      const uncompleted = () => logger.entries.filter((entry) => entry.message.startsWith('pg-boss could not complete a job')).length;
      let before = Infinity;
      duringRun.set(runId, () => {
        before = uncompleted();
        cut();
      });
      await scheduler.dispatch([runId]);
      await until(uncompleted, (count) => count > before, {
        timeoutMs: DEADLINE_MS + 5_000,
        what: "the job's completion to fail",
      });
      proxy.restore();
      const next = `${runId}next`;
      await until(
        () => failure(scheduler.dispatch([next]), 5_000),
        (send) => send.failed === 'sent',
        { what: 'a dispatch to be sent again' },
      );
      await until(() => executed.includes(next), Boolean, { what: 'the next run executed' });
      expect(unhandled.seen).to.deep.equal([]);
    });
  }
});
