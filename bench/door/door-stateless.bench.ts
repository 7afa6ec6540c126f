import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import { compare, type BenchResult } from '../support/harness.js';
import { accessToken, doorHost, unsignalledFetch } from './door-fixture.js';

const PINNED = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

/**
 * `tools/call` p50 through the MCP door on the stateless 2026-07-28 revision (token cache on,
 * breakers on and counting every call), beside the MCP SDK's own `createMcpHandler` on a bare
 * Node server on the same revision exposing the same tool, in the same run, both called by the SDK
 * v2 client pinned to 2026-07-28. Goal: the door's p50 within 1.15× the bare server's.
 */
export async function run(): Promise<BenchResult[]> {
  setMaxListeners(20_000);
  const bare = await bareModernServer();
  const bareClient = new Client({ name: 'bench', version: '1.0.0' }, PINNED);
  await bareClient.connect(new StreamableHTTPClientTransport(new URL(bare.url), { fetch: unsignalledFetch }));
  const dir = mkdtempSync(join(tmpdir(), 'porter-bench-door-stateless-'));
  let host: DevHost | undefined;
  try {
    host = await doorHost(undefined, `sqlite:${join(dir, 'porter.db')}`, { toolCallsPerMinute: 1_000_000, writesPerRun: 20 });
    const door = new URL(`${host.url}${host.porter.mount}/mcp`);
    const token = await accessToken(door, 'bench-user');
    const doorClient = new Client({ name: 'bench', version: '1.0.0' }, PINNED);
    await doorClient.connect(
      new StreamableHTTPClientTransport(door, { fetch: unsignalledFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    if (doorClient.getProtocolEra() !== 'modern') throw new Error('the door client did not negotiate 2026-07-28');
    const result = await compare({
      name: 'tools/call notes_list (read), stateless 2026-07-28, token cache on, breakers on',
      subject: { name: 'Porter door (2026-07-28)', run: call(doorClient) },
      anchor: { name: 'bare MCP SDK createMcpHandler (2026-07-28)', run: call(bareClient) },
      iterations: 2000,
      warmup: 200,
      measure: 'p50',
      // anchor p50 / door p50 ≥ 1/1.15: the door's p50 is at most 1.15× the bare server's.
      goal: Number((1 / 1.15).toFixed(3)),
    });
    await doorClient.close();
    await bareClient.close();
    return [result];
  } finally {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
    await bare.close();
  }
}

const call = (client: Client) => async () => {
  const result = await client.callTool({ name: 'notes_list', arguments: {} });
  if (result.isError) throw new Error(`notes_list failed: ${JSON.stringify(result.content)}`);
};

/** The anchor: the SDK's per-request handler on node:http (Node request → Web `Request` and back), the door's tool and nothing else. */
async function bareModernServer(): Promise<{ url: string; close(): Promise<void> }> {
  const notes: string[] = [];
  const handler = createMcpHandler(
    () => {
      const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
      server.setRequestHandler('tools/list', async () => ({
        tools: [
          {
            name: 'notes_list',
            description: 'List notes',
            inputSchema: { type: 'object', properties: {} },
            annotations: { readOnlyHint: true },
          },
        ],
      }));
      server.setRequestHandler('tools/call', async () => {
        const output = { notes: [...notes] };
        return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
      });
      return server;
    },
    { legacy: 'reject' },
  );
  const http = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      // The body goes parsed, as the door hands it on: the Request carries none.
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method!, headers });
      const response = await handler.fetch(request, body ? { parsedBody: JSON.parse(body) } : {});
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function bodyOf(req: IncomingMessage): Promise<string | null> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return parts.length ? Buffer.concat(parts).toString('utf8') : null;
}
