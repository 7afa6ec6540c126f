import { startDevHost } from '../../composition/dev-host/dev-host.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import { randomBytes, createHash } from 'node:crypto';
import { bareMcpServer } from './bare-mcp-server.js';
const REDIRECT = 'http://127.0.0.1:7777/callback';
const host = await startDevHost({ port: 0, env: { NODE_ENV: 'development', PORTER_DATABASE_URL: 'sqlite::memory:', PORTER_SECRET: 'a-benchmark-secret-that-is-long-enough-0123456789', PORTER_WEBHOOK_DEMO_SECRET: `whsec_${randomBytes(24).toString('base64')}` },
  porter: { logger: 'silent', breakers: false, oauth: { ...developmentOAuth() } } });
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
const bare = await bareMcpServer();
for (const [url, auth] of [[door.href, { authorization: `Bearer ${tok.access_token}` }], [bare.url, {}]] as const) {
  const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth };
  const init = await fetch(url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
  const sid = init.headers.get('mcp-session-id')!; await init.text();
  await (await fetch(url, { method: 'POST', headers: { ...h, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  const r = await fetch(url, { method: 'POST', headers: { ...h, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'notes_list', arguments: {} } }) });
  console.log(r.status, [...r.headers].map(([k, v]) => `${k}: ${v}`).join('\n'), '\n', await r.text(), '\n====');
}
await bare.close(); await host.close(); process.exit(0);
