import { startDevHost, type DevHost } from '../../composition/dev-host/dev-host.js';
import type { PorterOptions } from '../../composition/config/porter-options.js';
import { freePort } from './http-server.js';

export interface HostPerTestOptions {
  /** Added to the suite's environment. */
  readonly env?: NodeJS.ProcessEnv;
  readonly porter?: PorterOptions;
  /** Serve on a free port that PORTER_BASE_URL names, as a host that forwards present calls is set up. */
  readonly baseUrl?: boolean;
}

/**
 * A development host each test starts for itself (its set-up is what the test checks), with the
 * suite's `env` and quiet logs, closed after the test. Call it in a `describe`; it answers the starter.
 */
export function hostPerTest(env: NodeJS.ProcessEnv): (options?: HostPerTestOptions) => Promise<DevHost> {
  let host: DevHost | null = null;
  afterEach(async () => {
    await host?.close();
    host = null;
  });
  return async (options = {}) => {
    const port = options.baseUrl ? await freePort() : 0;
    host = await startDevHost({
      port,
      env: { ...env, ...options.env, ...(options.baseUrl ? { PORTER_BASE_URL: `http://127.0.0.1:${port}` } : {}) },
      porter: { logger: 'silent', ...options.porter },
    });
    return host;
  };
}
