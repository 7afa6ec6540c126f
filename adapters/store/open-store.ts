import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Store } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import { parseDatabaseUrl } from './database-url.js';
import { MemoryStore } from './memory/memory-store.js';
import { MikroOrmStore } from './mikro-orm/mikro-orm-store.js';
import type { MikroOrmTuning } from './mikro-orm/orm-options.js';
import { redactUrls } from './shared/redact-url.js';

export interface OpenStoreOptions extends MikroOrmTuning {
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Apply pending migrations while opening (SQLite, PostgreSQL). Default true. */
  readonly migrate?: boolean;
}

/**
 * Opens the store a PORTER_DATABASE_URL names: `sqlite:<file path>` (parent folders are created),
 * `sqlite::memory:`, `postgres://…` / `postgresql://…`, or `memory:`.
 */
export async function openStore(url: string, options: OpenStoreOptions): Promise<Store> {
  const location = parseDatabaseUrl(url);
  if (location.engine === 'memory') return new MemoryStore({ clock: options.clock });
  if (location.engine === 'sqlite' && location.file !== ':memory:') await mkdir(dirname(location.file), { recursive: true });
  const store = await MikroOrmStore.open({ ...options, target: location });
  options.logger?.info('store opened', {
    engine: location.engine,
    location: location.engine === 'sqlite' ? location.file : redactUrls(location.url),
  });
  return store;
}
