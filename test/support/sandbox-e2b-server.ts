import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { z } from 'zod';
import type { EgressResolver } from '../../adapters/sandbox/egress/egress-proxy.js';
import { ConnectError, serverStream, unary } from './sandbox-e2b-connect.js';
import { FakeE2bSandbox, type FakeNetwork } from './sandbox-e2b-sandboxes.js';
import { sendEmpty as empty, sendJson as json } from './http-server.js';

/** envd's port inside every sandbox. */
const ENVD_PORT = 49983;

const networkSchema = z.strictObject({
  allowOut: z.array(z.string()).optional(),
  denyOut: z.array(z.string()).optional(),
  allowPublicTraffic: z.boolean().optional(),
  maskRequestHost: z.string().optional(),
  httpsPorts: z.array(z.number().int()).optional(),
  rules: z.record(z.string(), z.array(z.unknown())).optional(),
});

/** NewSandboxV2 from e2b's OpenAPI document (the fields this double honours are the ones the Sandbox adapter sends). */
const newSandboxSchema = z.strictObject({
  templateID: z.string().min(1),
  metadata: z.record(z.string(), z.string()).optional(),
  envVars: z.record(z.string(), z.string()).optional(),
  timeout: z.number().int().positive().optional(),
  network: networkSchema.optional(),
  allow_internet_access: z.boolean().optional(),
  autoPause: z.boolean().optional(),
  autoPauseMemory: z.boolean().optional(),
  autoResume: z.strictObject({ enabled: z.boolean() }).optional(),
  mcp: z.unknown().optional(),
  iam: z.unknown().optional(),
  volumeMounts: z.array(z.unknown()).optional(),
});

const connectSchema = z.strictObject({ timeout: z.number().int().positive().optional(), memory: z.boolean().optional() });
const networkUpdateSchema = z.strictObject({
  allowOut: z.array(z.string()).optional(),
  denyOut: z.array(z.string()).optional(),
  rules: z.record(z.string(), z.array(z.unknown())).optional(),
  allowInternetAccess: z.boolean().optional(),
});
const snapshotSchema = z.strictObject({ name: z.string().optional() });
const pauseSchema = z.strictObject({ memory: z.boolean().optional() });

const processConfigSchema = z.object({
  cmd: z.string(),
  args: z.array(z.string()).optional(),
  envs: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
});
const startSchema = z.object({
  process: processConfigSchema,
  stdin: z.boolean().optional(),
  tag: z.string().optional(),
  pty: z.unknown().optional(),
});
const selectorSchema = z.object({ pid: z.number().int().optional(), tag: z.string().optional() });
const signalSchema = z.object({ process: selectorSchema, signal: z.union([z.string(), z.number()]) });

export interface E2bServerOptions {
  readonly apiKey: string;
  /** Templates a sandbox may start from (snapshots become templates too). Default `base`. */
  readonly templates?: ReadonlyArray<string>;
  /** How sandbox firewalls resolve allowed names. */
  readonly resolve: EgressResolver;
}

export interface E2bServer {
  /** For the SDK's `apiUrl`: the REST API (sandbox lifecycle, snapshots, network). */
  readonly apiUrl: string;
  /** For the SDK's `sandboxUrl`: envd and app traffic, routed by the E2b-Sandbox-Id/Port headers. */
  readonly sandboxUrl: string;
  readonly sandboxes: ReadonlyMap<string, FakeE2bSandbox>;
  /** Snapshots that exist, by id, with the sandbox each was taken from (they outlive it). */
  readonly snapshots: ReadonlyMap<string, { readonly sandboxId: string }>;
  /** Every REST call, as `METHOD /path`. */
  readonly calls: ReadonlyArray<string>;
  close(): Promise<void>;
}

/**
 * A local stand-in for e2b that the real `e2b` SDK talks to unchanged: its REST API and, on one
 * sandbox URL, envd (HTTP file API and the Connect `process.Process` service) plus the proxy that
 * carries traffic to a sandbox port. It implements what Porter's adapter uses, faithfully to
 * e2b's OpenAPI document and envd's protocol; see FakeE2bSandbox for where it simulates the VM.
 */
export async function startE2bServer(options: E2bServerOptions): Promise<E2bServer> {
  const root = await mkdtemp(join(tmpdir(), 'porter-e2b-'));
  const sandboxes = new Map<string, FakeE2bSandbox>();
  /** Snapshot id → its copy of the sandbox's files and the sandbox it was taken from. */
  const snapshots = new Map<string, { path: string; sandboxId: string }>();
  const templates = new Set(options.templates ?? ['base']);
  const calls: string[] = [];
  const keyHash = createHash('sha256').update(options.apiKey).digest();

  const authorised = (request: IncomingMessage) => {
    const given = createHash('sha256')
      .update(String(request.headers['x-api-key'] ?? ''))
      .digest();
    return timingSafeEqual(given, keyHash);
  };

  const sandboxJson = (sandbox: FakeE2bSandbox) => ({
    sandboxID: sandbox.id,
    templateID: sandbox.templateID,
    clientID: 'local',
    envdVersion: '0.5.4',
    envdAccessToken: sandbox.envdAccessToken,
    trafficAccessToken: sandbox.trafficAccessToken ?? null,
    domain: null,
  });

  async function createSandbox(body: z.infer<typeof newSandboxSchema>): Promise<FakeE2bSandbox | null> {
    const snapshot = snapshots.get(body.templateID);
    if (!snapshot && !templates.has(body.templateID)) return null;
    const network: FakeNetwork = { ...body.network, ...(body.allow_internet_access === false ? { allowInternetAccess: false } : {}) };
    const sandbox = new FakeE2bSandbox(
      join(root, 'sandboxes', randomBytes(8).toString('hex')),
      body.templateID,
      body.metadata ?? {},
      network,
      body.envVars ?? {},
      body.timeout ?? 300,
      options.resolve,
    );
    await sandbox.prepare(snapshot?.path);
    sandboxes.set(sandbox.id, sandbox);
    return sandbox;
  }

  const api = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://api');
      calls.push(`${request.method} ${url.pathname}`);
      if (!authorised(request)) return json(response, 401, { code: 401, message: 'Invalid API key' });
      const body = await readJson(request);
      const route = `${request.method} ${url.pathname}`;
      let match: RegExpExecArray | null;
      if (route === 'POST /v2/sandboxes') {
        const parsed = newSandboxSchema.safeParse(body);
        if (!parsed.success) return json(response, 400, { code: 400, message: parsed.error.message });
        const sandbox = await createSandbox(parsed.data);
        if (!sandbox) return json(response, 404, { code: 404, message: `template '${parsed.data.templateID}' not found` });
        return json(response, 201, sandboxJson(sandbox));
      }
      if (route === 'GET /v2/sandboxes') {
        const wanted = new URLSearchParams(url.searchParams.get('metadata') ?? '');
        const states = (url.searchParams.get('state') ?? 'running,paused').split(',');
        const listed = [...sandboxes.values()].filter(
          (sandbox) =>
            states.includes(sandbox.state) &&
            [...wanted].every(([key, value]) => sandbox.metadata[decodeURIComponent(key)] === decodeURIComponent(value)),
        );
        return json(
          response,
          200,
          listed.map((sandbox) => ({
            ...sandboxJson(sandbox),
            cpuCount: 2,
            memoryMB: 512,
            diskSizeMB: 1024,
            metadata: sandbox.metadata,
            startedAt: sandbox.startedAt.toISOString(),
            endAt: sandbox.endAt.toISOString(),
            state: sandbox.state,
          })),
        );
      }
      if ((match = /^POST \/v2\/sandboxes\/([^/]+)\/connect$/.exec(route))) {
        const sandbox = sandboxes.get(match[1]!);
        if (!connectSchema.safeParse(body).success) return json(response, 400, { code: 400, message: 'bad connect body' });
        if (!sandbox) return json(response, 404, { code: 404, message: `sandbox ${match[1]} not found` });
        const resumed = sandbox.state === 'paused';
        sandbox.state = 'running';
        return json(response, resumed ? 201 : 200, sandboxJson(sandbox));
      }
      if ((match = /^DELETE \/sandboxes\/([^/]+)$/.exec(route))) {
        const sandbox = sandboxes.get(match[1]!);
        if (!sandbox) return json(response, 404, { code: 404, message: 'sandbox not found' });
        sandboxes.delete(sandbox.id);
        await sandbox.destroy();
        return empty(response, 204);
      }
      if ((match = /^POST \/sandboxes\/([^/]+)\/pause$/.exec(route))) {
        const sandbox = sandboxes.get(match[1]!);
        if (!pauseSchema.safeParse(body).success) return json(response, 400, { code: 400, message: 'bad pause body' });
        if (!sandbox) return json(response, 404, { code: 404, message: 'sandbox not found' });
        if (sandbox.state === 'paused') return json(response, 409, { code: 409, message: 'sandbox is already paused' });
        await sandbox.stopAll();
        sandbox.state = 'paused';
        return empty(response, 204);
      }
      if ((match = /^PUT \/sandboxes\/([^/]+)\/network$/.exec(route))) {
        const sandbox = sandboxes.get(match[1]!);
        const parsed = networkUpdateSchema.safeParse(body);
        if (!parsed.success) return json(response, 400, { code: 400, message: parsed.error.message });
        if (!sandbox) return json(response, 404, { code: 404, message: 'sandbox not found' });
        // The update replaces the egress rules wholesale; public-traffic settings are not part of it.
        sandbox.network = { allowPublicTraffic: sandbox.network.allowPublicTraffic, ...parsed.data };
        return empty(response, 204);
      }
      if ((match = /^POST \/sandboxes\/([^/]+)\/snapshots$/.exec(route))) {
        const sandbox = sandboxes.get(match[1]!);
        if (!snapshotSchema.safeParse(body).success) return json(response, 400, { code: 400, message: 'bad snapshot body' });
        if (!sandbox) return json(response, 404, { code: 404, message: 'sandbox not found' });
        const id = `${randomBytes(10).toString('hex')}:default`;
        const copy = join(root, 'snapshots', id.replace(':', '_'));
        await cp(sandbox.root, copy, { recursive: true, verbatimSymlinks: true, filter: (source) => !source.endsWith('.sock') });
        snapshots.set(id, { path: copy, sandboxId: sandbox.id });
        return json(response, 201, { snapshotID: id, names: [] });
      }
      if (route === 'GET /snapshots') {
        // e2b's listing: filtered by the sandbox a snapshot was taken from, paged by X-Next-Token.
        const from = url.searchParams.get('sandboxID');
        const limit = Number(url.searchParams.get('limit') ?? 100);
        const offset = Number(url.searchParams.get('nextToken') ?? 0);
        const matching = [...snapshots].filter(([, snapshot]) => from === null || snapshot.sandboxId === from);
        const page = matching.slice(offset, offset + limit);
        if (offset + limit < matching.length) response.setHeader('x-next-token', String(offset + limit));
        return json(
          response,
          200,
          page.map(([id]) => ({ snapshotID: id, names: [] })),
        );
      }
      if ((match = /^DELETE \/templates\/([^/]+)$/.exec(route))) {
        // Deleting a snapshot is deleting the template it became.
        const id = decodeURIComponent(match[1]!);
        const snapshot = snapshots.get(id);
        if (!snapshot) return json(response, 404, { code: 404, message: `template '${id}' not found` });
        snapshots.delete(id);
        await rm(snapshot.path, { recursive: true, force: true });
        return empty(response, 204);
      }
      return json(response, 404, { code: 404, message: `no route ${route}` });
    })().catch((error: unknown) => json(response, 500, { code: 500, message: String(error) }));
  });

  const gateway = createServer((request, response) => {
    void (async () => {
      const target = routeOf(request);
      const sandbox = target ? sandboxes.get(target.sandboxId) : undefined;
      if (!target || !sandbox || sandbox.state !== 'running') {
        return json(response, 502, { sandboxId: target?.sandboxId ?? '', message: 'The sandbox was not found', code: 502 });
      }
      if (target.port === ENVD_PORT) return envd(sandbox, request, response);
      if (sandbox.trafficAccessToken && request.headers['e2b-traffic-access-token'] !== sandbox.trafficAccessToken) {
        return json(response, 403, { sandboxId: sandbox.id, message: 'Missing or invalid traffic access token', code: 403 });
      }
      return toSandboxPort(sandbox, target.port, request, response);
    })().catch((error: unknown) => json(response, 500, { code: 500, message: String(error) }));
  });

  async function envd(sandbox: FakeE2bSandbox, request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.headers['x-access-token'] !== sandbox.envdAccessToken)
      return json(response, 401, { code: 401, message: 'invalid access token' });
    const url = new URL(request.url ?? '/', 'http://envd');
    const route = `${request.method} ${url.pathname}`;
    if (route === 'GET /health') return empty(response, 204);
    if (route === 'POST /files') {
      const form = await new Request('http://envd/files', {
        method: 'POST',
        headers: request.headers as Record<string, string>,
        body: Readable.toWeb(request) as ReadableStream,
        duplex: 'half',
      } as RequestInit).formData();
      const written = [];
      const single = url.searchParams.get('path');
      for (const entry of form.getAll('file')) {
        if (typeof entry === 'string') continue;
        const path = single ?? entry.name;
        const target = sandbox.path(path);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, Buffer.from(await entry.arrayBuffer()));
        written.push({ name: basename(path), type: 'file', path });
      }
      return json(response, 200, written);
    }
    if (route === 'GET /files') {
      const content = await readFile(sandbox.path(url.searchParams.get('path') ?? '')).catch(() => null);
      if (!content) return json(response, 404, { code: 404, message: 'file not found' });
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void response.end(content);
    }
    if (route === 'POST /process.Process/Start') {
      const keepalive = Number(request.headers['keepalive-ping-interval'] ?? 0);
      return serverStream(request, response, async (message, stream) => {
        const parsed = startSchema.safeParse(message);
        if (!parsed.success) throw new ConnectError('invalid_argument', parsed.error.message);
        try {
          await sandbox.startProcess(parsed.data.process, stream, keepalive);
        } catch (error) {
          throw new ConnectError('invalid_argument', `failed to start process: ${(error as Error).message}`);
        }
      });
    }
    if (route === 'POST /process.Process/List') {
      return unary(request, response, async () => ({
        processes: [...sandbox.processes].map(([pid, running]) => ({
          pid,
          config: { ...running.config, envs: running.config.envs ?? {}, args: running.config.args ?? [] },
        })),
      }));
    }
    if (route === 'POST /process.Process/SendSignal') {
      return unary(request, response, async (message) => {
        const parsed = signalSchema.safeParse(message);
        if (!parsed.success || parsed.data.process.pid === undefined)
          throw new ConnectError('invalid_argument', 'select the process by pid');
        const signal = parsed.data.signal === 'SIGNAL_SIGTERM' || parsed.data.signal === 15 ? 'SIGTERM' : 'SIGKILL';
        if (!sandbox.signal(parsed.data.process.pid, signal))
          throw new ConnectError('not_found', `process with pid ${parsed.data.process.pid} not found`);
        return {};
      });
    }
    return json(response, 404, { code: 404, message: `envd has no ${route}` });
  }

  function toSandboxPort(sandbox: FakeE2bSandbox, port: number, request: IncomingMessage, response: ServerResponse): void {
    const notOpen = () =>
      json(response, 502, { sandboxId: sandbox.id, message: 'The sandbox is running but port is not open', port, code: 502 });
    const hostPort = sandbox.ports.get(port);
    if (hostPort === undefined) return notOpen();
    const headers = { ...request.headers };
    for (const name of ['e2b-sandbox-id', 'e2b-sandbox-port', 'e2b-traffic-access-token']) delete headers[name];
    const upstream = httpRequest({ host: '127.0.0.1', port: hostPort, method: request.method, path: request.url, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.once('error', () => (response.headersSent ? response.destroy() : notOpen()));
    request.pipe(upstream);
  }

  const [apiUrl, sandboxUrl] = await Promise.all([listen(api), listen(gateway)]);
  return {
    apiUrl,
    sandboxUrl,
    sandboxes,
    snapshots,
    calls,
    async close() {
      await Promise.all([...sandboxes.values()].map((sandbox) => sandbox.destroy()));
      for (const server of [api, gateway]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Which sandbox and port a request is for: e2b's routing headers, or a `<port>-<sandboxId>.<domain>` host. */
function routeOf(request: IncomingMessage): { sandboxId: string; port: number } | null {
  const id = request.headers['e2b-sandbox-id'];
  const port = request.headers['e2b-sandbox-port'];
  if (typeof id === 'string' && typeof port === 'string') return { sandboxId: id, port: Number(port) };
  const host = /^(\d+)-([a-z0-9]+)\./.exec(request.headers.host ?? '');
  return host ? { sandboxId: host[2]!, port: Number(host[1]) } : null;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}
