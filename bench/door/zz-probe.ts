import { setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { startDevHost } from '../../composition/dev-host/dev-host.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import { randomBytes, createHash } from 'node:crypto';

const REDIRECT = 'http://127.0.0.1:7777/callback';
setMaxListeners(50_000);
const cache = process.argv[2] === 'off' ? 0 : undefined;
const host = await startDevHost({ port: 0, env: { NODE_ENV: 'development', PORTER_DATABASE_URL: 'sqlite::memory:', PORTER_SECRET: 'a-benchmark-secret-that-is-long-enough-0123456789', PORTER_WEBHOOK_DEMO_SECRET: `whsec_${randomBytes(24).toString('base64')}` },
  porter: { logger: 'silent', breakers: false, oauth: { ...developmentOAuth(), ...(cache === undefined ? {} : { tokenCacheMs: cache }) } } });
const door = new URL(`${host.url}${host.porter.mount}/mcp`);
const reg = (await (await fetch(`${door.href}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'b', redirect_uris: [REDIRECT] }) })).json()) as { client_id: string };
const verifier = randomBytes(32).toString('base64url');
const a = new URL(`${door.href}/authorize`);
a.search = new URLSearchParams({ response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' }).toString();
const cookie = 'porter_demo_user=u';
const page = await (await fetch(a, { headers: { cookie } })).text();
const handle = /name="handle" value="([^"]+)"/.exec(page)![1]!;
const ans = await fetch(`${door.href}/authorize`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: door.origin }, body: new URLSearchParams({ handle, decision: 'allow' }).toString() });
const code = new URL(ans.headers.get('location')!).searchParams.get('code')!;
const tok = (await (await fetch(`${door.href}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: reg.client_id }).toString() })).json()) as { access_token: string };
const f = (url: string | URL, init?: RequestInit) => { const { signal: _s, ...rest } = init ?? {}; return fetch(url, rest); };
const { bareMcpServer } = await import('./bare-mcp-server.js');
const bare = await bareMcpServer();
const dc = new Client({ name: 'b', version: '1' });
await dc.connect(new StreamableHTTPClientTransport(door, { fetch: f, requestInit: { headers: { authorization: `Bearer ${tok.access_token}` } } }));
const bc = new Client({ name: 'b', version: '1' });
await bc.connect(new StreamableHTTPClientTransport(new URL(bare.url), { fetch: f }));
const stats = { door: { cpu: 0, wall: [] as number[] }, bare: { cpu: 0, wall: [] as number[] } };
const N = Number(process.argv[3] ?? 3000);
for (let round = 0; round < N / 100 + 2; round++) {
  for (const [name, c] of [['door', dc], ['bare', bc]] as const) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < 100; i++) { const t = performance.now(); await c.callTool({ name: 'notes_list', arguments: {} }); if (round >= 2) stats[name].wall.push(performance.now() - t); }
    const d = process.cpuUsage(c0);
    if (round >= 2) stats[name].cpu += d.user + d.system;
  }
}
for (const [name, s] of Object.entries(stats)) { s.wall.sort((x, y) => x - y); console.log(`${name} cpu/call ${(s.cpu / s.wall.length).toFixed(0)} us  p50 ${s.wall[s.wall.length >> 1]!.toFixed(3)} ms`); }
console.log('ratio cpu', (stats.door.cpu / stats.bare.cpu).toFixed(3), 'p50', (stats.door.wall[stats.door.wall.length >> 1]! / stats.bare.wall[stats.bare.wall.length >> 1]!).toFixed(3));
await dc.close(); await bc.close(); await bare.close(); await host.close(); process.exit(0);
