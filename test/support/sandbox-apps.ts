import type { SandboxFile } from '../../ports/sandbox.js';

/**
 * Little app servers for sandbox tests, as a scaffold would write them: plain Node, no packages,
 * listening on $PORT. `POST /fn/<name>` is how Porter reaches a served app.
 *
 * - `POST /fn/echo` → { label, port, cwd, home, envKeys, startedBy, body }
 * - `POST /fn/fetch` {url} → { ok, status, text } or { error } — the app's own egress through fetch
 * - `POST /fn/http-get` {url} → the same through the http module
 * - `POST /fn/https-get` {url, ca} → the same through the https module, trusting `ca`
 * - `POST /fn/read` {file} → { text } or { error } — a file relative to the app
 * - `POST /fn/spawn` {command, args, env} → { code, stdout, stderr } — a child process the app starts,
 *   with `env` as its whole environment (`{}` by default: a clean one; `"inherit"`: the app's own);
 *   `command: "node"` is the app's own Node
 * - `POST /fn/exit` → answers, then the process exits
 * - `GET /redirect` → 302 to elsewhere
 */
export function nodeServer(label: string): string {
  return `
const http = require('node:http');
const fs = require('node:fs');
const read = (request) => new Promise((resolve) => { let body = ''; request.on('data', (c) => (body += c)); request.on('end', () => resolve(body ? JSON.parse(body) : null)); });
const reply = (response, status, value) => { response.writeHead(status, { 'content-type': 'application/json' }); response.end(JSON.stringify(value)); };
const viaHttp = (url, options = {}) => new Promise((resolve, reject) => {
  (url.startsWith('https:') ? require('node:https') : http).get(url, options, (answer) => { let text = ''; answer.on('data', (c) => (text += c)); answer.on('end', () => resolve({ ok: answer.statusCode < 400, status: answer.statusCode, text })); }).on('error', reject);
});
http.createServer(async (request, response) => {
  try {
    if (request.url === '/redirect') { response.writeHead(302, { location: 'http://example.invalid/elsewhere' }); return response.end(); }
    if (request.method === 'GET' && request.url === '/') return reply(response, 200, { label: ${JSON.stringify(label)} });
    const body = await read(request);
    switch (request.url) {
      case '/fn/echo':
        return reply(response, 200, { label: ${JSON.stringify(label)}, port: process.env.PORT, cwd: process.cwd(), home: process.env.HOME, envKeys: Object.keys(process.env).sort(), startedBy: process.env.STARTED_BY || null, body });
      case '/fn/fetch':
        try { const answer = await fetch(body.url); return reply(response, 200, { ok: answer.ok, status: answer.status, text: await answer.text() }); }
        catch (error) { return reply(response, 200, { error: String((error.cause && error.cause.message) || error.message) }); }
      case '/fn/http-get':
        try { return reply(response, 200, await viaHttp(body.url)); }
        catch (error) { return reply(response, 200, { error: String(error.message) }); }
      case '/fn/https-get':
        try { return reply(response, 200, await viaHttp(body.url, { ca: body.ca })); }
        catch (error) { return reply(response, 200, { error: String(error.message) }); }
      case '/fn/read':
        try { return reply(response, 200, { text: fs.readFileSync(body.file, 'utf8') }); }
        catch (error) { return reply(response, 200, { error: error.code }); }
      case '/fn/spawn':
        return require('node:child_process').execFile(body.command === 'node' ? process.execPath : body.command, body.args || [], { env: body.env === 'inherit' ? process.env : body.env || {}, timeout: 8000 }, (error, stdout, stderr) =>
          reply(response, 200, { code: error ? (typeof error.code === 'number' ? error.code : String(error.code || error.signal)) : 0, stdout, stderr }));
      case '/fn/exit':
        reply(response, 200, { bye: true });
        return setTimeout(() => process.exit(0), 20);
      default:
        return reply(response, 404, { error: 'no such fn' });
    }
  } catch (error) { reply(response, 500, { error: String(error) }); }
}).listen(Number(process.env.PORT), process.env.HOST);
`;
}

export const nodeApp = (label: string): SandboxFile[] => [{ path: '/app/server.js', content: nodeServer(label) }];

/** A start.sh app: the script marks the environment, starts a helper in the background, then the server. */
export const startShApp = (label: string): SandboxFile[] => [
  { path: '/app/server.js', content: nodeServer(label) },
  {
    path: '/app/helper.js',
    content: `require('node:fs').writeFileSync(require('node:path').join(process.env.TMPDIR || '.', 'helper.pid'), String(process.pid)); setInterval(() => {}, 1000);`,
  },
  {
    path: '/app/start.sh',
    mode: 0o755,
    content: '#!/bin/sh\nexport STARTED_BY=start.sh\necho "booting from start.sh"\nnode helper.js &\nexec node server.js\n',
  },
];

/** A server that dies at boot, saying why. */
export const crashingApp = (): SandboxFile[] => [
  { path: '/app/server.js', content: `console.error('boom: DATABASE_URL is not set'); process.exit(3);` },
];

/** A server that never listens. */
export const silentApp = (): SandboxFile[] => [
  {
    path: '/app/server.js',
    content: `require('node:fs').writeFileSync(require('node:path').join(process.env.TMPDIR || '.', 'server.pid'), String(process.pid)); console.log('still warming up'); setInterval(() => {}, 1000);`,
  },
];

/** Not JavaScript at all: what a broken edit looks like. */
export const brokenApp = (): SandboxFile[] => [{ path: '/app/server.js', content: 'this is not javascript (' }];

export interface EchoBody {
  label: string;
  port: string;
  cwd: string;
  home: string;
  envKeys: string[];
  startedBy: string | null;
  body: unknown;
}

export interface SpawnAnswer {
  code: number | string;
  stdout: string;
  stderr: string;
}

/**
 * A Node script for `/fn/spawn` that fetches its argument and prints `REACHED <body>` or
 * `REFUSED <why>`: code that knows nothing of proxies.
 */
export const FETCH_SCRIPT = `fetch(process.argv[1]).then((r) => r.text()).then((t) => console.log('REACHED ' + t), (e) => console.log('REFUSED ' + ((e.cause && (e.cause.code || e.cause.message)) || e.message)))`;

export interface EgressAnswer {
  ok?: boolean;
  status?: number;
  text?: string;
  error?: string;
}

export async function callFn<T>(
  session: { fetch(path: string, init?: RequestInit): Promise<Response> },
  name: string,
  body: unknown = {},
): Promise<T> {
  const response = await session.fetch(`/fn/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`fn ${name} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Whether a process is still alive. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export { eventually } from './eventually.js';

/** A server whose `POST /fn/hello` answers, and whose `POST /fn/hog {mb}` keeps that much more memory. */
export const HOGGING_SERVER = `
const kept = [];
require('node:http').createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const mb = request.url === '/fn/hog' ? JSON.parse(body).mb : 0;
    for (let i = 0; i < mb; i++) kept.push(Buffer.alloc(1024 * 1024, 1));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ kept: kept.length }));
  });
}).listen(Number(process.env.PORT), process.env.HOST);
`;
