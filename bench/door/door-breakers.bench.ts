import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import type { PorterOptions } from '../../composition/config/config-schema.js';
import { compare, type BenchResult } from '../support/harness.js';
import { accessToken, call, doorHost, unsignalledFetch } from './door-fixture.js';

/**
 * What the breakers cost a `tools/call` through the door: the door's p50 with `toolCallsPerMinute`
 * counted on every call (set so high it never trips, so every call still runs) beside the same
 * door with the breakers off, in the same run, each on a SQLite file of its own as `npm start`
 * keeps one. Goal: breakers cost at most 5 % of the door's p50.
 */
export async function run(): Promise<BenchResult[]> {
  setMaxListeners(20_000);
  const on = await door({ toolCallsPerMinute: 1_000_000, writesPerRun: 20 });
  const off = await door(false);
  try {
    return [
      await compare({
        name: 'tools/call notes_list (read), breakers counted vs off',
        subject: { name: 'Porter door, breakers on (toolCallsPerMinute counted)', run: call(on.client) },
        anchor: { name: 'Porter door, breakers off', run: call(off.client) },
        iterations: 4000,
        warmup: 300,
        measure: 'p50',
        // off p50 / on p50 ≥ 1/1.05: the breakers add at most 5 % to the door's p50.
        goal: Number((1 / 1.05).toFixed(3)),
      }),
    ];
  } finally {
    await on.close();
    await off.close();
  }
}

async function door(breakers: PorterOptions['breakers']): Promise<{ client: Client; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'porter-bench-breakers-'));
  let host: DevHost | undefined;
  try {
    host = await doorHost(undefined, `sqlite:${join(dir, 'porter.db')}`, breakers);
    const url = new URL(`${host.url}${host.porter.mount}/mcp`);
    const token = await accessToken(url, 'bench-user');
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, { fetch: unsignalledFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    const started = host;
    return {
      client,
      async close() {
        await client.close();
        await started.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
