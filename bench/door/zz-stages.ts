import { setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { startDevHost } from '../../composition/dev-host/dev-host.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import { McpDoorTransport } from '../../adapters/mcp/mcp-door-transport.js';
import { AdmitCaller } from '../../application/door/admit-caller.js';
import { CallDoorTool } from '../../application/door/call-door-tool.js';
import { GuardCall } from '../../application/guard/guard-call.js';
import * as web from '../../adapters/mcp/web-exchange.js';
import { bareMcpServer } from './bare-mcp-server.js';
import './zz-sql.js';
import { randomBytes, createHash } from 'node:crypto';
setMaxListeners(50_000);
const stages: Record<string, number[]> = {};
const rec = (k: string, v: number) => (stages[k] ??= []).push(v);
let measuring = false;
function wrap(proto: any, name: string, label: string) {
  const orig = proto[name];
  proto[name] = function (...args: unknown[]) {
    const t = performance.now();
    const r = orig.apply(this, args);
    if (r && typeof r.then === 'function') return r.finally(() => measuring && rec(label, performance.now() - t));
    if (measuring) rec(label, performance.now() - t);
    return r;
  };
}
wrap(McpDoorTransport.prototype, 'serve', 'transport.serve');
wrap(McpDoorTransport.prototype, 'answer', 'transport.answer');
wrap(McpDoorTransport.prototype, 'hand', 'transport.hand');
wrap(McpDoorTransport.prototype, 'read', 'transport.read');
wrap(AdmitCaller.prototype, 'execute', 'admit');
wrap(CallDoorTool.prototype, 'execute', 'callDoorTool');
wrap(GuardCall.prototype, 'execute', 'guard');
wrap(WebStandardStreamableHTTPServerTransport.prototype, 'handleRequest', 'sdk.handleRequest(all)');
const REDIRECT = 'http://127.0.0.1:7777/callback';
const host = await startDevHost({ port: 0, env: { NODE_ENV: 'development', PORTER_DATABASE_URL: 'sqlite::memory:', PORTER_SECRET: 'a-benchmark-secret-that-is-long-enough-0123456789', PORTER_WEBHOOK_DEMO_SECRET: `whsec_${randomBytes(24).toString('base64')}` },
  porter: { logger: 'silent', breakers: false, oauth: { ...developmentOAuth() } } });
host.server.prependListener('request', (_req, res) => { const t = performance.now(); res.once('finish', () => measuring && rec('door server total (request→finish)', performance.now() - t)); });
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
const bare = await bareMcpServer();
const { createServer } = await import('node:http');
const dc = new Client({ name: 'b', version: '1' });
await dc.connect(new StreamableHTTPClientTransport(door, { fetch: f, requestInit: { headers: { authorization: `Bearer ${tok.access_token}` } } }));
const bc = new Client({ name: 'b', version: '1' });
await bc.connect(new StreamableHTTPClientTransport(new URL(bare.url), { fetch: f }));
// bare server timing: patch http.Server emit? measure via Server.prototype
const http = await import('node:http');
const origEmit = http.Server.prototype.emit;
http.Server.prototype.emit = function (this: any, ev: string, req: any, res: any) {
  if (ev === 'request' && this !== host.server) { const t = performance.now(); res.once('finish', () => measuring && rec('bare server total (request→finish)', performance.now() - t)); }
  return origEmit.apply(this, arguments as any);
} as any;
for (let r = 0; r < 24; r++) {
  measuring = r >= 4; (globalThis as any).__sqlOn(r >= 4);
  for (const [name, c] of [['door', dc], ['bare', bc]] as const)
    for (let i = 0; i < 100; i++) { const t = performance.now(); await c.callTool({ name: 'notes_list', arguments: {} }); if (measuring) rec(`${name} client round trip`, performance.now() - t); }
}
(globalThis as any).__sqlOn(false);
for (const [k, v] of (globalThis as any).__sqlCounts) console.log(v, k);
const med = (v: number[]) => { const s = [...v].sort((x, y) => x - y); return s[s.length >> 1]!; };
for (const [k, v] of Object.entries(stages)) console.log(`${med(v).toFixed(3).padStart(8)} ms  ${k}  (n=${v.length})`);
await dc.close(); await bc.close(); await bare.close(); await host.close(); process.exit(0);
