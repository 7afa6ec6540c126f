import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ACCEPTED_DATABASE_URLS, parseDatabaseUrl } from '../../../adapters/store/database-url.js';
import { openStore } from '../../../adapters/store/open-store.js';
import type { Store } from '../../../ports/store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTestDatabase, postgresServerUrl } from '../../support/postgres.js';
import { recordingLogger } from './mikro-orm-store-behaviour.js';
import { closedAfter } from '../../support/closed-after.js';

describe('PORTER_DATABASE_URL', () => {
  describe('parseDatabaseUrl', () => {
    it('reads a relative SQLite path against the working directory', () => {
      expect(parseDatabaseUrl('sqlite:.porter/porter.db', '/srv/app')).to.deep.equal({
        engine: 'sqlite',
        file: resolve('/srv/app', '.porter/porter.db'),
      });
      expect(parseDatabaseUrl('sqlite:data.db', '/srv/app')).to.deep.equal({ engine: 'sqlite', file: '/srv/app/data.db' });
    });

    it('keeps an absolute SQLite path', () => {
      expect(parseDatabaseUrl('sqlite:/var/lib/porter/porter.db', '/srv/app')).to.deep.equal({
        engine: 'sqlite',
        file: '/var/lib/porter/porter.db',
      });
    });

    it('reads an in-memory SQLite database and the memory store', () => {
      expect(parseDatabaseUrl('sqlite::memory:')).to.deep.equal({ engine: 'sqlite', file: ':memory:' });
      expect(parseDatabaseUrl('memory:')).to.deep.equal({ engine: 'memory' });
    });

    it('passes both PostgreSQL schemes through whole, options included', () => {
      for (const url of ['postgres://u:p@db.internal:5433/porter?sslmode=require', 'postgresql://localhost/porter']) {
        expect(parseDatabaseUrl(url)).to.deep.equal({ engine: 'postgresql', url });
      }
    });

    it('refuses anything else, naming the variable and every accepted form but not the value', () => {
      for (const url of ['mysql://root:hunter2@db/porter', 'sqlite:', 'postgres://', '', 'porter.db', 'file:porter.db']) {
        let message = '';
        try {
          parseDatabaseUrl(url);
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message, url).to.contain('PORTER_DATABASE_URL');
        for (const form of ACCEPTED_DATABASE_URLS) expect(message).to.contain(form);
        expect(message).to.not.contain('hunter2');
      }
      expect(ACCEPTED_DATABASE_URLS).to.include.members([
        'sqlite:<file path>',
        'sqlite::memory:',
        'postgres://…',
        'postgresql://…',
        'memory:',
      ]);
    });
  });

  describe('openStore', () => {
    let folder: string;
    const opened = closedAfter<Store>({ each: true });

    before(async () => {
      folder = await mkdtemp(join(tmpdir(), 'porter-open-'));
    });

    after(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    async function open(url: string, logger = recordingLogger()): Promise<Store> {
      const store = await openStore(url, { clock: new ManualClock(), logger });
      opened.push(store);
      return store;
    }

    it('opens the memory store', async () => {
      expect((await open('memory:')).kind).to.equal('memory');
    });

    it('opens a SQLite file, creating its folders, and an in-memory SQLite database', async () => {
      const file = join(folder, 'nested', 'deeper', 'porter.db');
      const store = await open(`sqlite:${file}`);
      expect(store.kind).to.equal('sqlite');
      await store.records('x').put({ id: 'a', data: 1 });
      expect(existsSync(file)).to.equal(true);
      expect((await open('sqlite::memory:')).kind).to.equal('sqlite');
    });

    it('opens PostgreSQL without ever logging the password', async function () {
      const server = await postgresServerUrl();
      if (!server) this.skip();
      const database = await createTestDatabase(server!);
      try {
        const url = new URL(database.url);
        // The local test server trusts its clients, so any password gets in; it must never be logged.
        url.password = 'never-logged-s3cret';
        const logger = recordingLogger();
        const store = await open(url.toString(), logger);
        expect(store.kind).to.equal('postgresql');
        await store.ping();
        await store.close();
        expect(logger.lines.length).to.be.greaterThan(0);
        expect(JSON.stringify(logger.lines)).to.not.contain('never-logged-s3cret');
      } finally {
        await database.drop();
      }
    });
  });
});
