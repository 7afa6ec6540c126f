import { z } from 'zod';
import { InvalidInput } from '../../../domain/errors.js';
import { SandboxProviderFailed, SandboxServerFailed, SandboxServerNotRunning, SandboxSnapshotNotFound } from '../sandbox-errors.js';
import { defined } from '../../../domain/defined.js';

/** The service's error envelope (docs/sandbox-cloud-api.md). */
const errorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});

const startFailureSchema = z.object({ reason: z.enum(['exited', 'timeout']), output: z.string() });

export const sandboxSchema = z.object({
  id: z.string().regex(/^[\w-]{1,200}$/),
  appId: z.string(),
  state: z.enum(['stopped', 'running']),
  egress: z.object({ allowDomains: z.array(z.string()) }).nullable(),
});

export const statusSchema = sandboxSchema.extend({ listening: z.boolean() });
export const snapshotSchema = z.object({ id: z.string().min(1), createdAt: z.string() });

export interface CloudClientOptions {
  readonly url: string;
  readonly token: string;
  readonly requestTimeoutMs: number;
}

/** The bearer token may only cross the network inside TLS; loopback is the one exception. */
export function checkedServiceUrl(url: string): URL {
  const parsed = new URL(url);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new InvalidInput('The sandbox service URL must be https:// (plain http only for a loopback host)');
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash)
    throw new InvalidInput('The sandbox service URL takes no credentials, query or fragment');
  return parsed;
}

/** Calls the sandbox cloud API: bearer auth, JSON checked on the way back, the envelope turned into Porter's errors. */
export class CloudClient {
  private readonly base: string;

  constructor(private readonly options: CloudClientOptions) {
    this.base = checkedServiceUrl(options.url).toString().replace(/\/$/, '');
  }

  async json<T>(method: string, path: string, body: unknown, schema: z.ZodType<T>, timeoutMs = this.options.requestTimeoutMs): Promise<T> {
    const init: RequestInit = method === 'GET' ? {} : { body: JSON.stringify(body ?? {}), headers: { 'content-type': 'application/json' } };
    const response = await this.send(method, path, init, timeoutMs);
    if (!response.ok) throw await this.failure(response);
    const parsed = schema.safeParse(response.status === 204 ? {} : await response.json().catch(() => undefined));
    if (!parsed.success) throw new SandboxProviderFailed('cloud', `unexpected answer to ${method} ${path}`);
    return parsed.data;
  }

  /** A call answered with no content; `body` undefined sends none (DELETE). */
  async empty(method: string, path: string, body: unknown): Promise<void> {
    const init: RequestInit = body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const response = await this.send(method, path, init, this.options.requestTimeoutMs);
    if (!response.ok) throw await this.failure(response);
    await response.body?.cancel();
  }

  /** The proxy route: the app's answer verbatim, unless the service says (with Sandbox-Error) that it answered itself. */
  async proxy(sandboxId: string, path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    const own = headers.get('authorization');
    headers.delete('authorization');
    if (own !== null) headers.set('x-sandbox-forwarded-authorization', own);
    const response = await this.send(
      init.method ?? 'GET',
      `/v1/sandboxes/${encodeURIComponent(sandboxId)}/proxy${path}`,
      { ...init, headers },
      undefined,
    );
    if (response.headers.has('sandbox-error')) throw await this.failure(response);
    return response;
  }

  private async send(method: string, path: string, init: RequestInit, timeoutMs: number | undefined): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${this.options.token}`);
    try {
      return await fetch(`${this.base}${path}`, {
        ...init,
        method,
        headers,
        redirect: 'manual',
        ...defined({ signal: timeoutMs !== undefined && !init.signal ? AbortSignal.timeout(timeoutMs) : undefined }),
      });
    } catch (error) {
      // The URL is ours and carries no secret; the token never appears in a message.
      throw new SandboxProviderFailed('cloud', `${method} ${path} did not complete (${(error as Error).message})`);
    }
  }

  private async failure(response: Response): Promise<Error> {
    const parsed = errorSchema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) return new SandboxProviderFailed('cloud', `answered ${response.status}`);
    const { code, message, details } = parsed.data.error;
    if (code === 'start-failed') {
      const failure = startFailureSchema.safeParse(details);
      return new SandboxServerFailed(failure.success ? failure.data.reason : 'exited', failure.success ? failure.data.output : '');
    }
    if (code === 'not-running') return new SandboxServerNotRunning();
    if (code === 'not-found' && response.url.includes('/snapshots/')) return new SandboxSnapshotNotFound();
    if (code === 'validation') return new InvalidInput(message);
    return new SandboxProviderFailed('cloud', `${response.status} ${code}: ${message}`);
  }
}
