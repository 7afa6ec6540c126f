import { fork, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
setMaxListeners(50_000);
const f = (url: string | URL, init?: RequestInit) => { const { signal: _s, ...rest } = init ?? {}; return fetch(url, rest); };
const next = (c: ChildProcess) => new Promise<any>((r) => c.once('message', r));
const kinds = process.argv.slice(2);
const servers: Record<string, { c: ChildProcess; client: Client; cpu: number; wall: number[] }> = {};
for (const k of kinds) {
  const c = fork(new URL('./zz-server.ts', import.meta.url).pathname, [k], { execArgv: ['--import', 'tsx'] });
  const { url, token } = await next(c);
  const client = new Client({ name: 'b', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: f, requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} } }));
  servers[k] = { c, client, cpu: 0, wall: [] };
}
const N = Number(process.env.N ?? 2000);
for (let round = 0; round < N / 100 + 3; round++) {
  if (round === 3) for (const k of kinds) { servers[k]!.c.send('start'); await next(servers[k]!.c); }
  for (const k of kinds) {
    const s = servers[k]!;
    s.c.send('cpu'); const c0 = (await next(s.c)).cpu;
    for (let i = 0; i < 100; i++) { const t = performance.now(); await s.client.callTool({ name: 'notes_list', arguments: {} }); if (round >= 3) s.wall.push(performance.now() - t); }
    s.c.send('cpu'); const c1 = (await next(s.c)).cpu;
    if (round >= 3) s.cpu += c1.user + c1.system - c0.user - c0.system;
  }
}
for (const k of kinds) { const s = servers[k]!; s.c.send('stop'); await next(s.c); s.wall.sort((a, b) => a - b); console.log(`${k}: server cpu/call ${(s.cpu / s.wall.length).toFixed(0)} us, p50 ${s.wall[s.wall.length >> 1]!.toFixed(3)} ms`); await s.client.close(); s.c.send('exit'); }
