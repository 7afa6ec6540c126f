import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { MikroOrmStore } from '../../adapters/store/mikro-orm/mikro-orm-store.js';
import type { Store } from '../../ports/store.js';
import { ManualClock } from './manual-clock.js';
import { createTestDatabase, postgresServerUrl } from './postgres.js';

/** Two stores over one database, as two instances see it, and what removes the database after. */
export interface PairedStores {
  readonly stores: readonly [Store, Store];
  cleanup(): Promise<void>;
}

/**
 * Each store kind a race runs on, named: one memory store shared (interleaved callers), two SQLite
 * stores over one file, and two PostgreSQL stores over one database (null when the run has none).
 */
export function pairedStoreKinds(prefix: string): ReadonlyArray<readonly [string, () => Promise<PairedStores | null>]> {
  return [
    [
      'memory (one store, interleaved callers)',
      async () => {
        const store = new MemoryStore({ clock: new ManualClock() });
        return { stores: [store, store], cleanup: async () => undefined };
      },
    ],
    [
      'SQLite (two stores over one file)',
      async () => {
        const dir = await mkdtemp(join(tmpdir(), prefix));
        const file = join(dir, 'porter.db');
        const first = await MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock: new ManualClock() });
        const second = await MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock: new ManualClock() });
        return { stores: [first, second], cleanup: () => rm(dir, { recursive: true, force: true }) };
      },
    ],
    [
      'PostgreSQL (two stores over one database)',
      async () => {
        const server = await postgresServerUrl();
        if (!server) return null;
        const database = await createTestDatabase(server);
        const target = { engine: 'postgresql' as const, url: database.url };
        const first = await MikroOrmStore.open({ target, clock: new ManualClock() });
        const second = await MikroOrmStore.open({ target, clock: new ManualClock() });
        return { stores: [first, second], cleanup: () => database.drop() };
      },
    ],
  ];
}
