import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { serve, type RunningServer } from '../support/http-server.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../support/postgres.js';
import { holdSqliteWriteLock } from '../support/sqlite-lock-holder.js';
import { WireClient } from '../support/turn-client.js';

const TIMEOUTS = { statementMs: 1_000, acquireMs: 1_000 };
const ENV = {
  PORTER_SECRET: 'a-development-secret-for-the-tests-0123456789',
  PORTER_SANDBOX_ROOT: mkdtempSync(join(tmpdir(), 'porter-sandboxes-')),
};

interface Timed {
  readonly status: number;
  readonly code: string | undefined;
  readonly ms: number;
}

async function timed(answer: Promise<{ status: number; body: { error?: { code: string } } }>): Promise<Timed> {
  const started = Date.now();
  const { status, body } = await answer;
  return { status, code: body?.error?.code, ms: Date.now() - started };
}

async function hostOn(databaseUrl: string): Promise<{ porter: Porter; server: RunningServer; ada: WireClient }> {
  const porter = await createPorter(
    { development: true, logger: 'silent', databaseTimeouts: TIMEOUTS, automations: false },
    { ...ENV, PORTER_DATABASE_URL: databaseUrl },
  );
  const server = await serve(porter.listener);
  return { porter, server, ada: new WireClient(`${server.url}${porter.mount}`).as('ada') };
}

describe('A frozen database answers 503 within the configured timeouts, and recovers without a restart', function () {
  this.timeout(60_000);

  describe('PostgreSQL', () => {
    let database: TestDatabase | null = null;
    let host: Awaited<ReturnType<typeof hostOn>>;

    before(async function () {
      const serverUrl = await postgresServerUrl();
      if (!serverUrl) return this.skip();
      database = await createTestDatabase(serverUrl);
      host = await hostOn(database.url);
    });

    after(async () => {
      await host?.server.close();
      await host?.porter.close();
      await database?.drop();
    });

    it("a table locked by another session: each request answers 503 unavailable in about statementMs, the pool's waiters in about acquireMs more", async () => {
      const { ada } = host;
      await ada.newThread();
      const locker = new pg.Client({ connectionString: database!.url });
      await locker.connect();
      try {
        await locker.query('begin');
        await locker.query('lock table porter_records in access exclusive mode');
        const one = await timed(ada.json('GET', '/threads'));
        expect(one).to.deep.include({ status: 503, code: 'unavailable' });
        expect(one.ms).to.be.within(TIMEOUTS.statementMs - 100, TIMEOUTS.statementMs + 1_500);
        // More requests than the pool has connections (10): the ones waiting for a connection give up too.
        const many = await Promise.all(Array.from({ length: 25 }, () => timed(ada.json('POST', '/threads', {}))));
        for (const answer of many) expect(answer).to.deep.include({ status: 503, code: 'unavailable' });
        expect(Math.max(...many.map((a) => a.ms))).to.be.below(TIMEOUTS.statementMs + TIMEOUTS.acquireMs + 2_000);
      } finally {
        await locker.query('rollback');
        await locker.end();
      }
      expect((await ada.json('GET', '/threads')).status).to.equal(200);
      expect((await ada.json('POST', '/threads', {})).status).to.equal(201);
    });
  });

  describe('SQLite', () => {
    let host: Awaited<ReturnType<typeof hostOn>>;
    let file: string;

    before(async () => {
      file = join(mkdtempSync(join(tmpdir(), 'porter-db-')), 'porter.db');
      host = await hostOn(`sqlite:${file}`);
    });

    after(async () => {
      await host.server.close();
      await host.porter.close();
    });

    it('another process holding the write lock: a write answers 503 unavailable in about statementMs, and succeeds once it lets go', async () => {
      const { ada } = host;
      await ada.newThread();
      const holder = await holdSqliteWriteLock(file);
      try {
        const blocked = await timed(ada.json('POST', '/threads', {}));
        expect(blocked).to.deep.include({ status: 503, code: 'unavailable' });
        expect(blocked.ms).to.be.within(TIMEOUTS.statementMs - 100, TIMEOUTS.statementMs + 1_500);
      } finally {
        await holder.release();
      }
      expect((await ada.json('POST', '/threads', {})).status).to.equal(201);
    });
  });
});
