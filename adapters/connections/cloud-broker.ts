import { z } from 'zod';
import type { ConnectionStatus } from '../../domain/connections/connection.js';
import { BrokerUnavailable } from '../../domain/connections/errors.js';
import type {
  BrokerAccount,
  BrokerInitiation,
  BrokerObservation,
  BrokerToolkit,
  ConnectionBroker,
  ProxyRequest,
  ProxyResponse,
} from '../../ports/connections.js';
import { brokerFailure } from './broker-failure.js';
import { plainHeaders } from './plain-headers.js';
import { defined } from '../../domain/defined.js';

export interface CloudBrokerOptions {
  /** The service's base URL (PORTER_CONNECTIONS_URL). */
  readonly url: string;
  /** Its API key (PORTER_CONNECTIONS_KEY). */
  readonly key: string;
  /** Per-call timeout; 10 s by default. */
  readonly timeoutMs?: number;
}

const status = z.enum(['initiated', 'active', 'failed', 'expired'] satisfies ConnectionStatus[]);
const connection = z.object({ id: z.string().min(1), toolkit: z.string(), owner: z.string(), reference: z.string(), status });
const started = connection.extend({ redirect_url: z.url(), expires_at: z.string().min(1).nullable().optional() });
const toolkitList = z.object({
  toolkits: z.array(z.object({ slug: z.string().min(1).max(64), name: z.string().min(1).max(200).optional() })).max(1000),
});
const proxied = z.object({
  status: z.number().int().min(100).max(599),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.unknown(),
});

/** An HTTP answer that is not 2xx, shaped so broker-failure can read it. */
class CloudAnswer extends Error {
  constructor(
    readonly status: number,
    readonly error: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

/**
 * The Porter Cloud connections API (docs/connections-cloud-api.md) over fetch. Every answer is
 * checked against that page; anything else is a broker failure, never trusted.
 */
export class CloudBroker implements ConnectionBroker {
  readonly kind = 'cloud' as const;
  readonly name = 'cloud';

  assertConfigured(): void {}
  private readonly base: string;

  constructor(private readonly options: CloudBrokerOptions) {
    this.base = `${options.url.replace(/\/+$/, '')}/v1`;
  }

  async toolkits(): Promise<ReadonlyArray<BrokerToolkit>> {
    let answer: unknown;
    try {
      answer = await this.call('listing toolkits', 'GET', '/toolkits');
    } catch (error) {
      throw error instanceof CloudAnswer ? brokerFailure(this.name, 'listing toolkits', error) : error;
    }
    const listed = this.checked(toolkitList, answer, 'listing toolkits');
    return listed.toolkits.map((t) => ({ toolkit: t.slug, name: t.name ?? t.slug }));
  }

  async initiate(account: Omit<BrokerAccount, 'ref'>, callbackUrl: string): Promise<BrokerInitiation> {
    const answer = await this.call('starting a connection', 'POST', '/connections', {
      body: { toolkit: account.toolkit, owner: account.owner, reference: account.connectionId, callback_url: callbackUrl },
      // A retried start returns the same connection instead of making a second one.
      headers: { 'idempotency-key': account.connectionId },
    });
    const made = this.checked(started, answer, 'starting a connection');
    this.sameAccount(made, account);
    return { ref: made.id, redirectUrl: made.redirect_url, expiresAt: made.expires_at ? new Date(made.expires_at).toISOString() : null };
  }

  async observe(account: BrokerAccount): Promise<BrokerObservation> {
    if (!account.ref) return { status: 'initiated', ref: null };
    let answer: unknown;
    try {
      answer = await this.call('reading the connection', 'GET', `/connections/${encodeURIComponent(account.ref)}`);
    } catch (error) {
      if (error instanceof CloudAnswer && error.status === 404) return { status: 'expired', ref: account.ref };
      throw error instanceof CloudAnswer ? brokerFailure(this.name, 'reading the connection', error) : error;
    }
    const seen = this.checked(connection, answer, 'reading the connection');
    this.sameAccount(seen, account);
    return { status: seen.status, ref: seen.id };
  }

  async remove(account: BrokerAccount): Promise<void> {
    if (!account.ref) return;
    try {
      await this.call('removing the connection', 'DELETE', `/connections/${encodeURIComponent(account.ref)}`);
    } catch (error) {
      if (error instanceof CloudAnswer && error.status === 404) return;
      throw error instanceof CloudAnswer ? brokerFailure(this.name, 'removing the connection', error) : error;
    }
  }

  async request(account: BrokerAccount & { ref: string }, request: ProxyRequest): Promise<ProxyResponse> {
    const answer = await this.call('the proxied request', 'POST', `/connections/${encodeURIComponent(account.ref)}/proxy`, {
      body: {
        method: request.method,
        path: request.path,
        query: request.query ?? {},
        headers: request.headers ?? {},
        body: request.body ?? null,
      },
    });
    const out = this.checked(proxied, answer, 'the proxied request');
    return { status: out.status, headers: plainHeaders(out.headers), body: out.body };
  }

  private async call(
    doing: string,
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.options.key}`,
          accept: 'application/json',
          ...defined({ 'content-type': init.body !== undefined ? 'application/json' : undefined }),
          ...init.headers,
        },
        ...defined({ body: init.body !== undefined ? JSON.stringify(init.body) : undefined }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        redirect: 'error',
      });
    } catch {
      throw new BrokerUnavailable(this.name, `${doing} failed: the broker could not be reached`);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!response.ok) {
      const failure = new CloudAnswer(response.status, body);
      // 404 on a read or removal means "gone", which the caller decides about.
      if (response.status === 404 && method !== 'POST') throw failure;
      throw brokerFailure(this.name, doing, failure);
    }
    return body;
  }

  private checked<S extends z.ZodType>(schema: S, answer: unknown, doing: string): z.output<S> {
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw new BrokerUnavailable(this.name, `${doing} returned an answer that does not match the connections API`);
    return parsed.data;
  }

  /** The service must be talking about the account Porter asked about. */
  private sameAccount(seen: { owner: string; reference: string; toolkit: string }, account: Omit<BrokerAccount, 'ref'>): void {
    if (seen.owner !== account.owner || seen.reference !== account.connectionId || seen.toolkit !== account.toolkit) {
      throw new BrokerUnavailable(this.name, 'the service answered about a different connection');
    }
  }
}
