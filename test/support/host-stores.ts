import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { SystemClock } from '../../adapters/runtime/system-clock.js';
import { devHost, type DevHostFixture, type DevHostOptions } from './dev-host-fixture.js';
import { createTestDatabase, postgresServerUrl } from './postgres.js';

/** Where a suite's development host keeps its records; `name` goes into the suite's title. */
export interface HostStore {
  readonly name: string;
  /** The host's options for this store and what to clean up after, or null when the run lacks it (the suite skips). */
  open(): Promise<{ readonly options: DevHostOptions; close(): Promise<void> } | null>;
}

const nothingToClose = async (): Promise<void> => {};

/** The development host's own SQLite database, in memory. */
export const ON_SQLITE: HostStore = { name: 'SQLite', open: async () => ({ options: {}, close: nothingToClose }) };

/** The host's store option: a memory store. */
export const ON_MEMORY_STORE: HostStore = {
  name: 'the memory store',
  open: async () => ({ options: { porter: { store: new MemoryStore({ clock: new SystemClock() }) } }, close: nothingToClose }),
};

/** A fresh PostgreSQL database Porter opens, dropped after the suite. */
export const ON_POSTGRESQL: HostStore = {
  name: 'PostgreSQL',
  async open() {
    const server = await postgresServerUrl();
    if (!server) return null;
    const database = await createTestDatabase(server);
    return { options: { env: { PORTER_DATABASE_URL: database.url } }, close: () => database.drop() };
  },
};

/**
 * One development host on `store` for the calling suite, with `options` added to the store's:
 * started before its first test, closed (and its database dropped) after its last.
 */
export function devHostOn(store: HostStore, options: DevHostOptions, ready: (host: DevHostFixture) => void): void {
  let host: DevHostFixture | undefined;
  let opened: Awaited<ReturnType<HostStore['open']>> = null;
  before(async function () {
    opened = await store.open();
    if (!opened) return this.skip();
    const own = opened.options;
    host = await devHost({ ...options, env: { ...own.env, ...options.env }, porter: { ...own.porter, ...options.porter } });
    ready(host);
  });
  after(async () => {
    await host?.close();
    await opened?.close();
  });
}
