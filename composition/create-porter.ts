import type { Container } from 'inversify';
import { loadConfig } from './config/load-config.js';
import type { PorterConfig } from './config/config-schema.js';
import type { PorterOptions } from './config/porter-options.js';
import { loggerFor, type CoreParts } from './modules/core-module.js';
import { productionContainer } from './containers/production.js';
import { developmentContainer } from './containers/development.js';
import { get, getAll, TOKENS } from './tokens.js';
import { KNOWLEDGE_TOKENS } from './modules/knowledge-tokens.js';
import { WIRE_TOKENS } from './modules/wire-tokens.js';
import { rememberContainer } from './porter-container.js';
import { openConfiguredStore } from './config/open-configured-store.js';
import { loadIntegrations } from './integrations/load-integrations.js';
import { SystemClock } from '../adapters/runtime/system-clock.js';
import { mountsOf } from '../adapters/http/mount.js';
import type { WireMounts } from '../adapters/http/wire-mounts.js';
import type { KoaWire } from '../adapters/http/koa-wire.js';
import type { Store } from '../ports/store.js';
import type { BackgroundScheduler } from '../ports/scheduler.js';
import { knowledgeVectorsAtBoot } from './knowledge-vectors-at-boot.js';
import { porterKnowledge, type PorterKnowledge } from './porter-knowledge.js';

/** What a host mounts: the wire as Koa middleware, a Node listener, a connect-style handler or a Web `fetch` handler. */
export interface Porter extends WireMounts {
  /** The mount path, e.g. `/api/porter`. */
  readonly mount: string;
  /** `production` or `development`. */
  readonly composition: 'production' | 'development';
  /** The documents the agent answers from, with citations (docs/knowledge.md). */
  readonly knowledge: PorterKnowledge;
  /** Stops background work and closes the store. */
  close(): Promise<void>;
}

/**
 * The factory a host calls. Options win over environment variables; invalid configuration, and a
 * database that cannot be opened, fail here with a PorterConfigError naming the option.
 */
export async function createPorter(options: PorterOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Porter> {
  return openPorter(options, env, { background: true });
}

/**
 * createPorter, with the choice of starting its background work (the ticker, the run queue, the
 * liveness watch). A one-shot command (`porter sync`) starts none: it must not tick schedules or
 * take runs in a process that exits when it is done.
 */
export async function openPorter(options: PorterOptions, env: NodeJS.ProcessEnv, start: { readonly background: boolean }): Promise<Porter> {
  const config: PorterConfig = loadConfig(options, env);
  const clock = new SystemClock();
  const logger = loggerFor(config);
  // Optional packages (providers, e2b, brokers, pg-boss) are loaded first: a missing one fails here.
  const integrations = await loadIntegrations(config, env, logger);
  const store: Store = config.store ?? (await openConfiguredStore(config, options, env, { clock, logger, ...storeTimeouts(config) }));
  const knowledgeVectors = await knowledgeVectorsAtBoot(config, store, logger).catch(async (error: unknown) => {
    if (!config.store) await store.close().catch(() => undefined);
    throw error;
  });
  const parts = { config, store, clock, logger, env, integrations, knowledgeVectors };
  const { container, wire, background } = await boot(parts, config, start.background);
  const porter: Porter = {
    ...mountsOf(wire),
    mount: config.mount,
    composition: config.development ? 'development' : 'production',
    knowledge: porterKnowledge(get(container, KNOWLEDGE_TOKENS.KnowledgeUseCases)),
    async close() {
      for (const work of background) await work.stop();
      await container.unbindAllAsync();
      if (!config.store) await store.close();
    },
  };
  rememberContainer(porter, container);
  return porter;
}

/**
 * Builds the composition and starts its background work. A boot that fails part-way leaves
 * nothing running: what started stops, and the store it opened is closed.
 */
async function boot(
  parts: CoreParts,
  config: PorterConfig,
  startBackground: boolean,
): Promise<{ container: Container; wire: KoaWire; background: BackgroundScheduler[] }> {
  let container: Container | null = null;
  const background: BackgroundScheduler[] = [];
  try {
    container = config.development ? developmentContainer(parts) : productionContainer(parts);
    const wire = get(container, WIRE_TOKENS.KoaWire);
    // Background work (the scheduler) starts once the wire is built and stops first on close.
    for (const work of startBackground ? getAll(container, TOKENS.Background) : []) {
      await work.start();
      background.push(work);
    }
    return { container, wire, background };
  } catch (error) {
    for (const work of [...background].reverse()) await work.stop().catch(() => undefined);
    await container?.unbindAllAsync().catch(() => undefined);
    if (!config.store) await parts.store.close().catch(() => undefined);
    throw error;
  }
}

/** The database timeouts as the store's tuning: SQLite's busy wait is its statements' wait for a lock. */
function storeTimeouts(config: PorterConfig): { statementTimeoutMs: number; busyTimeoutMs: number; connectTimeoutMs: number } {
  const { statementMs, acquireMs } = config.databaseTimeouts;
  return { statementTimeoutMs: statementMs, busyTimeoutMs: statementMs, connectTimeoutMs: acquireMs };
}
