import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';
import { describeTextIndexConformance } from './text-index-conformance.js';

describe('Text indexes', function () {
  let folder: string;
  const databases: TestDatabase[] = [];

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'porter-text-'));
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
    while (databases.length) await databases.pop()!.drop();
  });

  describeTextIndexConformance('memory', async () => async (clock) => new MemoryStore({ clock }));

  describeTextIndexConformance('sqlite (FTS5)', async () => {
    const file = join(folder, 'text.db');
    return (clock) => MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock });
  });

  describeTextIndexConformance('postgresql (tsvector)', async () => {
    const server = await postgresServerUrl();
    if (!server) return null;
    const database = await createTestDatabase(server);
    databases.push(database);
    return (clock) => MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, clock });
  });
});
