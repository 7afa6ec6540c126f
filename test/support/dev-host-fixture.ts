import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevHost, type DevHost } from '../../composition/dev-host/dev-host.js';
import type { PorterOptions } from '../../composition/config/config-schema.js';
import { WireClient } from './turn-client.js';

/** What a test's development host differs in: its environment, Porter's options, the demo broker. */
export interface DevHostOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly porter?: PorterOptions;
  readonly demoBroker?: boolean;
}

/**
 * The development host as `npm start` runs it, on an in-memory SQLite database and a free port;
 * without its demo connection broker unless asked (`demoBroker: true`), so a test's deployment
 * has connections only when it configures them.
 */
export async function devHost(options: DevHostOptions = {}): Promise<DevHost & { client: WireClient }> {
  const host = await startDevHost({
    port: 0,
    env: {
      NODE_ENV: 'development',
      PORTER_DATABASE_URL: 'sqlite::memory:',
      PORTER_SECRET: 'a-development-secret-for-the-tests-0123456789',
      // Served apps of a test run live in a throwaway directory, not in the checkout's .porter/.
      PORTER_SANDBOX_ROOT: mkdtempSync(join(tmpdir(), 'porter-sandboxes-')),
      ...options.env,
    },
    porter: { logger: 'silent', ...options.porter },
    demoBroker: options.demoBroker ?? false,
  });
  return Object.assign(host, { client: new WireClient(`${host.url}${host.porter.mount}`) });
}

export type DevHostFixture = DevHost & { client: WireClient };

/**
 * One development host for a whole suite, with ada's client: started before the suite's first
 * test, closed after its last. `ready` receives both, e.g. `sharedDevHost((started) => ({ host, ada } = started))`.
 */
export function sharedDevHost(
  ready: (started: { host: DevHostFixture; ada: WireClient }) => void,
  options: () => DevHostOptions = () => ({}),
): void {
  let host: DevHostFixture | undefined;
  before(async () => {
    host = await devHost(options());
    ready({ host, ada: host.client.as('ada') });
  });
  after(async () => {
    await host?.close();
  });
}

/**
 * A development host per test, each closed after its test: `const start = devHostPerTest()` in a
 * suite, then `const { host, door } = await start({ limits: … })` in a test (`door` is its MCP door).
 */
export function devHostPerTest(): (porter?: PorterOptions) => Promise<{ host: DevHostFixture; door: URL }> {
  const open: DevHostFixture[] = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });
  return async (porter = {}) => {
    const host = await devHost({ porter });
    open.push(host);
    return { host, door: new URL(`${host.url}${host.porter.mount}/mcp`) };
  };
}
