import { setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { fork } from 'node:child_process';
setMaxListeners(50_000);
const f = (url: string | URL, init?: RequestInit) => { const { signal: _s, ...rest } = init ?? {}; return fetch(url, rest); };
// in-process: import server module
const kind = process.argv[2]!;
const c = fork(new URL('./zz-server.ts', import.meta.url).pathname, [kind], { execArgv: ['--import', 'tsx'] });
const next = () => new Promise<any>((r) => c.once('message', r));
const { url, token } = await next();
const client = new Client({ name: 'b', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: f, requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} } }));
for (let i = 0; i < 300; i++) await client.callTool({ name: 'notes_list', arguments: {} });
const prof = process.env.PROF === '1';
if (prof) { c.send('start'); await next(); }
const N = Number(process.env.N ?? 2000); const w: number[] = [];
for (let i = 0; i < N; i++) { const t = performance.now(); await client.callTool({ name: 'notes_list', arguments: {} }); w.push(performance.now() - t); }
if (prof) { c.send('stop'); await next(); }
w.sort((a, b) => a - b); console.log(`${kind} p50 ${w[N >> 1]!.toFixed(3)} p10 ${w[Math.floor(N * 0.1)]!.toFixed(3)}`);
await client.close(); c.send('exit');
