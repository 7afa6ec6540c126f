import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { MikroOrmStore } from '../../adapters/store/mikro-orm/mikro-orm-store.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import { ManualClock } from './manual-clock.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from './postgres.js';

/** A store kind a suite runs on, named: `open` gives a fresh store, or null when the run lacks the kind. */
export interface StoreKind {
  readonly name: string;
  open(clock: Clock): Promise<Store | null>;
}

/**
 * The store kinds a use case runs on, for the calling suite: a memory store, SQLite in a file of its
 * own and a fresh PostgreSQL database (null when the run has none). Each store's file and database
 * are removed after the suite; closing the stores is the caller's.
 */
export function storeKinds(prefix: string): ReadonlyArray<StoreKind> {
  let folder: string;
  let files = 0;
  const databases: TestDatabase[] = [];
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
    while (databases.length) await databases.pop()!.drop();
  });
  return [
    { name: 'memory', open: async (clock) => new MemoryStore({ clock }) },
    { name: 'SQLite', open: (clock) => MikroOrmStore.open({ target: { engine: 'sqlite', file: join(folder, `${++files}.db`) }, clock }) },
    {
      name: 'PostgreSQL',
      open: async (clock) => {
        const server = await postgresServerUrl();
        if (!server) return null;
        const database = await createTestDatabase(server);
        databases.push(database);
        return MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, clock });
      },
    },
  ];
}

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

/**
 * The stores of one kind for the calling suite: opened before its first test (the suite skips when
 * the run lacks the kind), closed and cleaned up after its last. The function returned gives them.
 */
export function pairedStoresPerSuite(open: () => Promise<PairedStores | null>): () => PairedStores {
  let opened: PairedStores | null = null;
  before(async function () {
    opened = await open();
    if (!opened) this.skip();
  });
  after(async () => {
    if (!opened) return;
    for (const store of new Set(opened.stores)) await store.close();
    await opened.cleanup();
  });
  return () => opened!;
}
