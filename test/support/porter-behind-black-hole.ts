import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { blackHoleProxy, type BlackHoleProxy } from './black-hole-proxy.js';
import { serve, type RunningServer } from './http-server.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from './postgres.js';
import { WireClient } from './turn-client.js';

const ENV = {
  PORTER_SECRET: 'a-development-secret-for-the-tests-0123456789',
  PORTER_SANDBOX_ROOT: mkdtempSync(join(tmpdir(), 'porter-sandboxes-')),
};

/**
 * Porter served for the calling suite on a fresh PostgreSQL database it reaches through a proxy the
 * test can black-hole; the suite skips when the run has no server. The function returned gives the
 * proxy and ada's client.
 */
export function porterBehindBlackHole(options: Parameters<typeof createPorter>[0]): () => { proxy: BlackHoleProxy; ada: WireClient } {
  let database: TestDatabase | null = null;
  let proxy: BlackHoleProxy;
  let porter: Porter;
  let server: RunningServer;
  let ada: WireClient;
  before(async function () {
    const serverUrl = await postgresServerUrl();
    if (!serverUrl) return this.skip();
    database = await createTestDatabase(serverUrl);
    proxy = await blackHoleProxy(database.url);
    porter = await createPorter(options, { ...ENV, PORTER_DATABASE_URL: proxy.url });
    server = await serve(porter.listener);
    ada = new WireClient(`${server.url}${porter.mount}`).as('ada');
  });
  after(async () => {
    proxy?.restore();
    await server?.close();
    await porter?.close();
    await proxy?.close();
    await database?.drop();
  });
  return () => ({ proxy, ada });
}
