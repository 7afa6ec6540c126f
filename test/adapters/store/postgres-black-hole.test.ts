import { expect } from 'chai';
import { DomainError } from '../../../domain/errors.js';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { blackHoleProxy, type BlackHoleProxy } from '../../support/black-hole-proxy.js';
import { until } from '../../support/eventually.js';
import { RecordingLogger } from '../../support/fakes.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';

const STATEMENT_MS = 1_000;
const CONNECT_MS = 1_000;
/** What an operation may take past its deadline on a loaded machine. */
const SLACK_MS = 500;

/** How the operation failed and how long it took; 'still waiting' when it had not settled by `limitMs`. */
async function failure(operation: Promise<unknown>, limitMs: number): Promise<{ code: string; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), limitMs)));
  try {
    const settled = await Promise.race([operation.then(() => 'succeeded'), late]);
    return { code: settled, ms: Date.now() - started };
  } catch (error) {
    return { code: error instanceof DomainError ? error.code : String(error), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

describe('The PostgreSQL store behind a black hole (a suspended server, or a network dropping every packet)', function () {
  this.timeout(30_000);
  let database: TestDatabase | null = null;
  let proxy: BlackHoleProxy;
  let store: MikroOrmStore;
  let logger: RecordingLogger;

  before(async function () {
    const serverUrl = await postgresServerUrl();
    if (!serverUrl) return this.skip();
    database = await createTestDatabase(serverUrl);
    proxy = await blackHoleProxy(database.url);
  });

  after(async () => {
    await proxy?.close();
    await database?.drop();
  });

  beforeEach(async function () {
    if (!database) return this.skip();
    logger = new RecordingLogger();
    store = await MikroOrmStore.open({
      target: { engine: 'postgresql', url: proxy.url },
      clock: new ManualClock(),
      logger,
      statementTimeoutMs: STATEMENT_MS,
      connectTimeoutMs: CONNECT_MS,
    });
  });

  afterEach(async () => {
    proxy?.restore();
    await store?.close();
  });

  it('a statement on an open connection rejects with Unavailable at its deadline, and one needing a new connection at the connect timeout', async () => {
    await store.records('x').put({ id: 'a', data: 1 });
    proxy.swallow();
    const pooled = await failure(store.records('x').get('a'), STATEMENT_MS + 5_000);
    expect(pooled.code).to.equal('unavailable');
    expect(pooled.ms).to.be.within(STATEMENT_MS - 50, STATEMENT_MS + SLACK_MS);
    // The connection that went unanswered was closed, not given back: this one needs a new connection.
    const fresh = await failure(store.records('x').get('a'), CONNECT_MS + 5_000);
    expect(fresh.code).to.equal('unavailable');
    expect(fresh.ms).to.be.below(CONNECT_MS + SLACK_MS);
    proxy.restore();
    // A connection begun while nothing answered may still fail the first read after; then reads succeed.
    const read = await until(
      () => failure(store.records('x').get('a'), STATEMENT_MS + 5_000),
      (outcome) => outcome.code === 'succeeded',
      { timeoutMs: CONNECT_MS + 3_000, what: 'a read to succeed again' },
    );
    expect(read.ms).to.be.below(STATEMENT_MS);
  });

  it('after a server lost the connections it had (restarted behind the black hole), statements succeed again by themselves', async () => {
    await store.records('x').put({ id: 'a', data: 1 });
    proxy.swallow();
    proxy.forget();
    // Each connection the pool kept open is now silent for good: a statement on one gives up at its
    // deadline and the connection is thrown away; statements on new connections succeed.
    const outcomes: Array<{ code: string; ms: number }> = [];
    while (outcomes.at(-1)?.code !== 'succeeded' && outcomes.length < 12)
      outcomes.push(await failure(store.records('x').get('a'), STATEMENT_MS + 3_000));
    expect(outcomes.at(-1)?.code).to.equal('succeeded');
    for (const outcome of outcomes.slice(0, -1)) {
      expect(outcome.code).to.equal('unavailable');
      expect(outcome.ms).to.be.below(STATEMENT_MS + SLACK_MS);
    }
    expect((await store.records('x').get('a'))?.data).to.equal(1);
  });

  it('a feed watcher whose listening connection was lost without a word is woken, and hears later appends, once the listener listens again', async () => {
    const direct = await MikroOrmStore.open({ target: { engine: 'postgresql', url: database!.url }, clock: new ManualClock() });
    try {
      let woken = 0;
      const unwatch = await store.feeds<string>('turns').watch('t1', () => woken++);
      await direct.feeds<string>('turns').append('t1', 0, ['one']);
      await until(
        () => woken,
        (n) => n === 1,
        { what: 'the first append to wake the watcher' },
      );
      proxy.swallow();
      proxy.forget();
      // Nothing tells the listener its connection is gone; its check finds no answer within the deadline.
      await until(
        () => woken,
        (n) => n === 2,
        {
          timeoutMs: 2 * STATEMENT_MS + 3_000,
          what: 'the watcher woken when the listener listens again',
        },
      );
      expect(logger.text()).to.contain('the feed listener lost its connection');
      await direct.feeds<string>('turns').append('t1', 1, ['two']);
      await until(
        () => woken,
        (n) => n === 3,
        { what: 'an append after the listener came back to wake the watcher' },
      );
      unwatch();
    } finally {
      await direct.close();
    }
  });

  it('a feed listener cut off while the server does not answer listens again once it does', async () => {
    const direct = await MikroOrmStore.open({ target: { engine: 'postgresql', url: database!.url }, clock: new ManualClock() });
    try {
      let woken = 0;
      const unwatch = await store.feeds<string>('turns').watch('t2', () => woken++);
      proxy.swallow();
      await until(
        () => logger.text(),
        (text) => text.includes('the feed listener lost its connection'),
        {
          timeoutMs: 2 * STATEMENT_MS + 3_000,
          what: 'the listener to give up its unanswered connection',
        },
      );
      proxy.restore();
      await until(
        () => woken,
        (n) => n >= 1,
        { timeoutMs: CONNECT_MS + 3_000, what: 'the watcher woken when the listener listens again' },
      );
      const before = woken;
      await direct.feeds<string>('turns').append('t2', 0, ['one']);
      await until(
        () => woken,
        (n) => n > before,
        { what: 'an append after the listener came back to wake the watcher' },
      );
      unwatch();
    } finally {
      await direct.close();
    }
  });

  it('closing the store while the server does not answer finishes in seconds: the listening connection is dropped when its goodbye goes unanswered', async () => {
    await store.feeds<string>('turns').watch('t3', () => undefined);
    await store.records('x').put({ id: 'a', data: 1 });
    proxy.swallow();
    // knex's pool waits up to 5 s for each goodbye of its own; the listener's is not waited on beyond a second.
    const closed = await failure(store.close(), 15_000);
    expect(closed.code).to.equal('succeeded');
    expect(closed.ms).to.be.below(5_000 + 1_000 + SLACK_MS + 500);
  });
});
