import { startDevHost } from '../../composition/dev-host/dev-host.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import { randomBytes, createHash } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { bareMcpServer } from './bare-mcp-server.js';
const REDIRECT = 'http://127.0.0.1:7777/callback';
const kind = process.argv[2]!;
let url: string; let token = ''; let close: () => Promise<void>;
if (kind === 'bare') { const b = await bareMcpServer(); url = b.url; close = b.close; }
else {
  const cache = kind === 'off' ? 0 : undefined;
  const host = await startDevHost({ port: 0, env: { NODE_ENV: 'development', PORTER_DATABASE_URL: 'sqlite::memory:', PORTER_SECRET: 'a-benchmark-secret-that-is-long-enough-0123456789', PORTER_WEBHOOK_DEMO_SECRET: `whsec_${randomBytes(24).toString('base64')}` },
    porter: { logger: 'silent', breakers: false, oauth: { ...developmentOAuth(), ...(cache === undefined ? {} : { tokenCacheMs: cache }) } } });
  close = () => host.close();
  const door = new URL(`${host.url}${host.porter.mount}/mcp`); url = door.href;
  const reg = (await (await fetch(`${door.href}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'b', redirect_uris: [REDIRECT] }) })).json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const a = new URL(`${door.href}/authorize`);
  a.search = new URLSearchParams({ response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' }).toString();
  const cookie = 'porter_demo_user=u';
  const page = await (await fetch(a, { headers: { cookie } })).text();
  const handle = /name="handle" value="([^"]+)"/.exec(page)![1]!;
  const ans = await fetch(`${door.href}/authorize`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: door.origin }, body: new URLSearchParams({ handle, decision: 'allow' }).toString() });
  const code = new URL(ans.headers.get('location')!).searchParams.get('code')!;
  token = ((await (await fetch(`${door.href}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: reg.client_id }).toString() })).json()) as { access_token: string }).access_token;
}
const s = new Session(); s.connect();
process.on('message', async (m: string) => {
  if (m === 'start') { await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 100 }); await s.post('Profiler.start'); process.send!({ cpu: process.cpuUsage() }); }
  if (m === 'stop') { const { profile } = await s.post('Profiler.stop'); writeFileSync(`/tmp/prof/srv-${kind}.cpuprofile`, JSON.stringify(profile)); process.send!({ cpu: process.cpuUsage() }); }
  if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
  if (m === 'exit') { await close(); process.exit(0); }
});
process.send!({ url, token });
