import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import type { EgressResolver } from '../../adapters/sandbox/egress/egress-proxy.js';
import type { LocalSandboxSession } from '../../adapters/sandbox/local/local-session.js';
import { DomainError } from '../../domain/errors.js';
import { SandboxServerFailed } from '../../adapters/sandbox/sandbox-errors.js';
import { sendEmpty as empty, sendJson as json } from './http-server.js';

/**
 * A local implementation of docs/sandbox-cloud-api.md, for the cloud adapter's tests: the routes,
 * bearer auth, strict bodies and error envelope as written there. The sandboxes themselves run on
 * Porter's local adapter (a child process per app, its egress proxy enforcing the policy).
 */

const appIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/);
const openSchema = z.strictObject({ egress: z.strictObject({ allowDomains: z.array(z.string().min(1)) }).nullable() });
const filesSchema = z.strictObject({
  files: z
    .array(z.strictObject({ path: z.string().min(1), content: z.base64(), mode: z.number().int().min(0).max(0o777).optional() }))
    .max(1000),
});
const startSchema = z.strictObject({ timeoutMs: z.number().int().min(1000).max(120_000).optional() });
const emptySchema = z.strictObject({});

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'authorization',
]);
const MAX_BODY = 32 * 1024 * 1024;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

interface CloudSandboxRecord {
  readonly id: string;
  readonly appId: string;
  egress: { allowDomains: string[] } | null;
  session: LocalSandboxSession;
  running: boolean;
  readonly snapshots: Set<string>;
}

export interface CloudServer {
  readonly url: string;
  /** Requests seen, as `METHOD path` with the Authorization header they carried. */
  readonly requests: ReadonlyArray<{ line: string; authorization: string | undefined; forwardedAuthorization: string | undefined }>;
  close(): Promise<void>;
}

export async function startCloudServer(options: { token: string; resolve: EgressResolver }): Promise<CloudServer> {
  const root = await mkdtemp(join(tmpdir(), 'porter-cloud-'));
  const runtime = new LocalSandbox({ root, resolve: options.resolve });
  const byApp = new Map<string, CloudSandboxRecord>();
  const byId = new Map<string, CloudSandboxRecord>();
  const requests: Array<{ line: string; authorization: string | undefined; forwardedAuthorization: string | undefined }> = [];
  const tokenHash = createHash('sha256').update(`Bearer ${options.token}`).digest();

  const view = (record: CloudSandboxRecord) => ({
    id: record.id,
    appId: record.appId,
    state: record.running ? 'running' : 'stopped',
    egress: record.egress,
  });
  const find = (id: string) => {
    const record = byId.get(id);
    if (!record) throw new ApiError(404, 'not-found', 'no such sandbox');
    return record;
  };
  const parse = <T>(schema: z.ZodType<T>, value: unknown): T => {
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new ApiError(400, 'validation', 'the request body is invalid', {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    return parsed.data;
  };
  const started = async (record: CloudSandboxRecord, run: () => Promise<void>) => {
    try {
      await run();
      record.running = true;
    } catch (error) {
      record.running = false;
      if (error instanceof SandboxServerFailed)
        throw new ApiError(422, 'start-failed', 'the app server did not start', { reason: error.reason, output: error.outputTail });
      throw error;
    }
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://cloud');
      requests.push({
        line: `${request.method} ${url.pathname}`,
        authorization: header(request, 'authorization'),
        forwardedAuthorization: header(request, 'x-sandbox-forwarded-authorization'),
      });
      const given = createHash('sha256')
        .update(header(request, 'authorization') ?? '')
        .digest();
      if (!timingSafeEqual(given, tokenHash)) {
        response.setHeader('www-authenticate', 'Bearer');
        throw new ApiError(401, 'unauthorized', 'a valid bearer token is required');
      }
      let match: RegExpExecArray | null;
      if ((match = /^\/v1\/sandboxes\/([^/]+)\/proxy(\/.*)$/.exec(url.pathname))) {
        return proxy(find(decodeURIComponent(match[1]!)), `${match[2]}${url.search}`, request, response);
      }
      const body = request.method === 'GET' ? undefined : await readJson(request);
      const route = `${request.method} ${url.pathname}`;
      if ((match = /^PUT \/v1\/apps\/([^/]+)\/sandbox$/.exec(route))) {
        const appId = parse(appIdSchema, decodeURIComponent(match[1]!));
        const { egress } = parse(openSchema, body);
        const existing = byApp.get(appId);
        let session: LocalSandboxSession;
        try {
          session = await runtime.open(appId, { egress });
        } catch (error) {
          if (error instanceof DomainError && error.code === 'validation') throw new ApiError(400, 'validation', error.message);
          throw error;
        }
        if (existing) {
          existing.egress = egress;
          existing.session = session;
          return json(response, 200, view(existing));
        }
        const record: CloudSandboxRecord = {
          id: `sbx_${randomBytes(8).toString('hex')}`,
          appId,
          egress,
          session,
          running: false,
          snapshots: new Set(),
        };
        byApp.set(appId, record);
        byId.set(record.id, record);
        return json(response, 201, view(record));
      }
      if ((match = /^PUT \/v1\/sandboxes\/([^/]+)\/files$/.exec(route))) {
        const record = find(decodeURIComponent(match[1]!));
        const { files } = parse(filesSchema, body);
        try {
          await record.session.writeFiles(
            files.map((file) => ({
              path: file.path,
              content: Buffer.from(file.content, 'base64'),
              ...(file.mode !== undefined ? { mode: file.mode } : {}),
            })),
          );
        } catch (error) {
          if (error instanceof DomainError && error.code === 'validation') throw new ApiError(400, 'validation', error.message);
          throw error;
        }
        return empty(response, 204);
      }
      if ((match = /^POST \/v1\/sandboxes\/([^/]+)\/start$/.exec(route))) {
        const record = find(decodeURIComponent(match[1]!));
        const { timeoutMs } = parse(startSchema, body);
        await started(record, () => record.session.start(timeoutMs ?? 30_000));
        return json(response, 200, view(record));
      }
      if ((match = /^GET \/v1\/sandboxes\/([^/]+)$/.exec(route))) {
        const record = find(decodeURIComponent(match[1]!));
        const listening = await record.session.isListening();
        return json(response, 200, { ...view({ ...record, running: record.running && listening }), listening });
      }
      if ((match = /^POST \/v1\/sandboxes\/([^/]+)\/snapshots$/.exec(route))) {
        const record = find(decodeURIComponent(match[1]!));
        parse(emptySchema, body);
        const id = await record.session.snapshot();
        record.snapshots.add(id);
        return json(response, 201, { id, createdAt: new Date().toISOString() });
      }
      if ((match = /^POST \/v1\/sandboxes\/([^/]+)\/snapshots\/([^/]+)\/restore$/.exec(route))) {
        const record = find(decodeURIComponent(match[1]!));
        const snapshotId = decodeURIComponent(match[2]!);
        const { timeoutMs } = parse(startSchema, body);
        if (!record.snapshots.has(snapshotId)) throw new ApiError(404, 'not-found', 'no such snapshot');
        await started(record, () => record.session.restore(snapshotId, timeoutMs ?? 30_000));
        return json(response, 200, view(record));
      }
      if ((match = /^POST \/v1\/sandboxes\/([^/]+)\/stop$/.exec(route))) {
        const record = find(decodeURIComponent(match[1]!));
        parse(emptySchema, body);
        await record.session.close();
        record.session = await runtime.open(record.appId, { egress: record.egress });
        record.running = false;
        return json(response, 200, view(record));
      }
      if ((match = /^DELETE \/v1\/sandboxes\/([^/]+)$/.exec(route))) {
        const record = find(decodeURIComponent(match[1]!));
        await record.session.discard();
        byApp.delete(record.appId);
        byId.delete(record.id);
        return empty(response, 204);
      }
      throw new ApiError(404, 'not-found', `no route ${route}`);
    })().catch((error: unknown) => {
      const failure = error instanceof ApiError ? error : new ApiError(500, 'internal', 'internal error');
      if (!(error instanceof ApiError)) console.error(error);
      if (response.headersSent) return response.destroy();
      json(response, failure.status, {
        error: { code: failure.code, message: failure.message, ...(failure.details ? { details: failure.details } : {}) },
      });
    });
  });

  async function proxy(record: CloudSandboxRecord, path: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const notRunning = () => {
      response.setHeader('sandbox-error', 'not-running');
      json(response, 502, { error: { code: 'not-running', message: 'the app server is not running' } });
    };
    let appResponse: Response;
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined || HOP_BY_HOP.has(name) || name === 'x-sandbox-forwarded-authorization' || name === 'content-length')
          continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const forwarded = header(request, 'x-sandbox-forwarded-authorization');
      if (forwarded) headers.set('authorization', forwarded);
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      appResponse = await record.session.fetch(path, {
        method: request.method,
        headers,
        ...(hasBody ? { body: new Uint8Array(await readBytes(request)) } : {}),
      });
    } catch {
      return notRunning();
    }
    const headers: Record<string, string> = {};
    appResponse.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-length' && name !== 'content-encoding') headers[name] = value;
    });
    response.writeHead(appResponse.status, headers);
    response.end(Buffer.from(await appResponse.arrayBuffer()));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    requests,
    async close() {
      await runtime.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBytes(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError(413, 'payload-too-large', 'the request body is over 32 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const text = (await readBytes(request)).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'validation', 'the body is not JSON');
  }
}
