import { hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import Database from 'libsql';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { compare, type BenchResult } from '../support/harness.js';
import { bareMcpServer } from './bare-mcp-server.js';
import { accessToken, call, doorHost, unsignalledFetch } from './door-fixture.js';

/**
 * `tools/call` p50 through the MCP door (the development host as `npm start` runs it, on SQLite:
 * bearer verification, `oauth.principal` re-resolution, the guard, act-as context) beside the MCP
 * SDK on a bare server exposing the same tool, in the same run, both called by the SDK's client.
 * Goal: the door's p50 within 1.2× the bare server's, with the access-token cache on and off.
 */
export async function run(): Promise<BenchResult[]> {
  // The SDK client passes one long-lived AbortSignal to every fetch, and undici only lets go of its
  // listener when the request is collected: thousands of calls trip the leak warning, not a leak.
  setMaxListeners(20_000);
  const bare = await bareMcpServer();
  const bareClient = new Client({ name: 'bench', version: '1.0.0' });
  await bareClient.connect(new StreamableHTTPClientTransport(new URL(bare.url), { fetch: unsignalledFetch }));
  const results: BenchResult[] = [];
  try {
    // The access-token cache as shipped (one second), then off: every request reads its token from
    // the store, a SQLite file as `npm start` keeps (.porter/), here in a directory of its own.
    for (const tokenCacheMs of [undefined, 0]) {
      const dir = mkdtempSync(join(tmpdir(), 'porter-bench-door-'));
      const host = await doorHost(tokenCacheMs, `sqlite:${join(dir, 'porter.db')}`);
      try {
        const door = new URL(`${host.url}${host.porter.mount}/mcp`);
        const token = await accessToken(door, 'bench-user');
        const doorClient = new Client({ name: 'bench', version: '1.0.0' });
        await doorClient.connect(
          new StreamableHTTPClientTransport(door, {
            fetch: unsignalledFetch,
            requestInit: { headers: { authorization: `Bearer ${token}` } },
          }),
        );
        const against = (name: string, anchor: { name: string; client: Client }) =>
          compare({
            name,
            subject: { name: `Porter door (tokenCacheMs ${tokenCacheMs ?? 'default'})`, run: call(doorClient) },
            anchor: { name: anchor.name, run: call(anchor.client) },
            iterations: 2000,
            warmup: 200,
            measure: 'p50',
            // anchor p50 / door p50 ≥ 1/1.2, i.e. the door's p50 is at most 1.2× the bare server's.
            goal: Number((1 / 1.2).toFixed(3)),
          });
        const cache = tokenCacheMs === 0 ? 'off' : 'on';
        results.push(
          await against(`tools/call notes_list (read), token cache ${cache}`, { name: 'bare MCP SDK server', client: bareClient }),
        );
        if (tokenCacheMs === 0) {
          // The same bare server, reading the bearer's record from the door's own SQLite file on every
          // call first (raw libsql, prepared): what the door adds beyond the one read `tokenCacheMs: 0` asks for.
          const reading = await bearerReadingServer(join(dir, 'porter.db'), token);
          try {
            const beside = await against('tools/call notes_list (read), token cache off, anchor also reads the bearer', {
              name: 'bare server + one SQLite read',
              client: reading.client,
            });
            // No goal of its own: it says how much of the row above is the read itself.
            results.push({ ...beside, absoluteGoal: { met: true, text: 'none of its own (reads the row above)' } });
          } finally {
            await reading.close();
          }
        }
        await doorClient.close();
      } finally {
        await host.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
    await bareClient.close();
    return results;
  } finally {
    await bare.close();
  }
}

/**
 * The bare anchor that, before each request, digests its bearer and reads that access token's record
 * from `file` as the door's store does (the same statement, on a connection of its own), refusing
 * a request whose token is not there.
 */
async function bearerReadingServer(file: string, token: string): Promise<{ client: Client; close(): Promise<void> }> {
  const db = new Database(file);
  db.exec('pragma busy_timeout = 5000');
  const read = db.prepare('select id, data, refs, revision, created_at, updated_at from porter_records where collection = ? and id = ?');
  const server = await bareMcpServer((req) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const [row] = read.all(['door-access-tokens', hash('sha256', bearer, 'base64url')]) as Array<{ data: string }>;
    if (!row) throw new Error('unknown token');
    JSON.parse(row.data);
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: unsignalledFetch,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return {
    client,
    async close() {
      await client.close();
      await server.close();
      db.close();
    },
  };
}
