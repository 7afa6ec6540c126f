import { DOOR_SCOPES } from '../../domain/door/door-scope.js';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type Server,
} from '@modelcontextprotocol/server';
import type { DoorCaller } from '../../domain/door/door-caller.js';
import { InvalidInput, PayloadTooLarge, Unavailable } from '../../domain/errors.js';
import type { DoorSessionInitialize, DoorSessionPrimitives, DoorSessionRegistry, LiveDoorSession } from '../../ports/door-sessions.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Telemetry } from '../../ports/telemetry.js';
import type { Admission, DoorTransportUseCases } from '../../ports/use-cases/door.js';
import type { WebExchange } from '../shared/web-handler.js';
import { AllowedOrigins } from './cors.js';
import type { DoorUrls } from './door-urls.js';
import { doorAuthInfo, doorServer, personPagesOf, type DoorServerInfo, type PersonPages } from './mcp-door-server.js';
import { InFlightRequests, requestIdsOf } from './in-flight-requests.js';
import { RateLimitedRequests } from './rate-limited-requests.js';
import { FIRST_MODERN, StatelessDoor } from './stateless-door.js';
import { jsonResponse, NOT_JSON, readExchange, type ReadExchange } from './web-exchange.js';
import { defined } from '../../domain/defined.js';

/** A door session as it runs here: one SDK transport and server, rebuilt from the store on another instance. */
export interface TransportSession extends LiveDoorSession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  readonly inFlight: InFlightRequests;
  /** Requests the server refused as rate limited, until their answer is sent. */
  readonly rateLimited: RateLimitedRequests;
  /** Counts an event stream opened on this session here; answers how to count it closed. */
  streamOpened(): () => void;
  /** Calls `listener` once the transport closes (a DELETE, or Porter closing the session); returns how to stop listening. */
  whenClosed(listener: () => void): () => void;
}

export interface McpDoorTransportOptions {
  readonly door: DoorTransportUseCases;
  readonly sessions: DoorSessionRegistry<TransportSession>;
  /** The door's public URLs for a request from an origin (see `doorUrlsAt`). */
  readonly urlsOf: (origin: string) => DoorUrls;
  readonly server: DoorServerInfo;
  readonly ids: Ids;
  readonly logger: Logger;
  /** Each request in a `porter.door.request` span (server kind), in the trace its `traceparent` named. */
  readonly telemetry?: Telemetry;
  /** Browser origins allowed besides the door's own and loopback ones (`door.allowedOrigins`); `'*'` allows any. */
  readonly allowedOrigins?: ReadonlyArray<string> | '*';
  /** The door's own origin for the Origin check: the configured base URL's. Never taken from a request's Host. */
  readonly ownOrigin?: string;
  /** Where the shipped chrome is (`door.chromeUrl`): a path on the door's origin or an absolute URL. */
  readonly chromeUrl?: string;
}

const EXPOSED_LIST = ['Mcp-Session-Id', 'WWW-Authenticate', 'Mcp-Protocol-Version', 'Retry-After'].join(', ');
/** The largest JSON-RPC body the transport reads: the SDK's own bound, applied as the body is read. */
const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

const REFUSALS: Readonly<Record<Exclude<Admission, { ok: true }>['reason'], string>> = {
  missing: 'This MCP server needs a bearer token; discover how to get one from the resource metadata',
  invalid: 'The access token is not valid (unknown, expired, revoked, or meant for another resource)',
  gone: 'The person this token was issued to is no longer known here; their sessions were closed',
};

/**
 * `{wire}/mcp`: MCP Streamable HTTP on the official SDK's Web-standard transport. Every request
 * is checked for its `Origin` (a foreign one is 403, as the transport specification requires) and
 * admitted afresh from its bearer token. A 2026-07-28 request (its `_meta` names the revision)
 * is answered statelessly (StatelessDoor), touching no session. Sessions are stored (see DoorSessions): any instance
 * serves any session, rebuilding the SDK's session here by replaying the client's `initialize`; a
 * session another subject or client opened, or one that ended, answers 404 so the client starts a
 * new one.
 */
export class McpDoorTransport {
  /** Sessions being rebuilt here, so two requests arriving together rebuild one. */
  private readonly rebuilding = new Map<string, Promise<TransportSession>>();
  private readonly origins: AllowedOrigins;
  private readonly stateless: StatelessDoor;
  /** The chrome's pages per door URLs (one per origin, as `urlsOf` keeps them): a URL parse less per request. */
  private readonly pages = new WeakMap<DoorUrls, PersonPages>();

  constructor(private readonly options: McpDoorTransportOptions) {
    this.origins = new AllowedOrigins(options.allowedOrigins, options.ownOrigin ?? null);
    this.stateless = new StatelessDoor(options.server, options.door, MAX_BODY_BYTES, (error) =>
      options.logger.warn('door transport error', { cause: error.message }),
    );
  }

  /** A request of the transport, framework-free: a Web `Request` in, a `Response` out (see WebHandler). */
  readonly handle = async (request: Request, exchange: WebExchange): Promise<Response> => {
    const telemetry = this.options.telemetry;
    if (!telemetry) return this.answer(request, exchange);
    return telemetry.span(
      'porter.door.request',
      () => ({ 'http.request.method': request.method, 'porter.door.session': sessionOf(request) }),
      async (span) => {
        const response = await this.answer(request, exchange);
        span.set({ 'http.response.status_code': response.status });
        return response;
      },
      { kind: 'server' },
    );
  };

  private async answer(request: Request, exchange: WebExchange): Promise<Response> {
    let response: Response;
    try {
      response = await this.serve(request, exchange);
    } catch (error) {
      // A request the transport cannot take (a body past the bound or unreadable, a Host that is no
      // host), in the shape and words the SDK transport answers these with.
      if (error instanceof PayloadTooLarge)
        response = transportError(413, -32000, `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`);
      else if (error instanceof InvalidInput) response = transportError(400, -32000, `Bad Request: ${error.message}`);
      else {
        const unavailable = error instanceof Unavailable;
        if (!unavailable)
          this.options.logger.error('door transport failed', {
            cause: error instanceof Error ? (error.stack ?? error.message) : String(error),
          });
        response = unavailable
          ? transportError(503, -32603, 'The service is unavailable; try again shortly')
          : transportError(500, -32603, 'Internal error');
      }
    }
    return corsAllowed(response);
  }

  private async serve(request: Request, web: WebExchange): Promise<Response> {
    const urls = this.options.urlsOf(web.origin);
    const headers = request.headers;
    const origin = headers.get('origin');
    if (origin && !this.origins.allows(origin, web.loopback))
      return transportError(403, -32000, 'Forbidden: this Origin may not use this MCP server');
    const token = bearerOf(headers.get('authorization') ?? '');
    const admitting = this.options.door.admitCaller.execute({ token, site: { issuer: urls.issuer, resource: urls.resource } });
    const sessionId = headers.get('mcp-session-id');
    // The session is looked up while the bearer is checked: no second wait on the store.
    const finding = sessionId
      ? this.options.sessions.findFor(
          sessionId,
          admitting.then((admitted) => (admitted.ok ? { subject: admitted.caller.subject, clientId: admitted.caller.clientId } : null)),
        )
      : null;
    let admission: Admission;
    try {
      admission = await admitting;
    } finally {
      // A failed admission fails the lookup with it; the admission's own failure is what answers.
      finding?.catch(() => undefined);
    }
    if (!admission.ok) return unauthorized(urls, admission.reason);
    const { caller } = admission;
    // Admission needs a token, so there is one here.
    const exchange: Exchange = { request, web, urls, token: token ?? '', caller, pages: this.pagesFor(urls) };

    if (finding) {
      const found = await finding;
      if (!found) return transportError(404, -32001, 'Session not found');
      if (request.method === 'DELETE') {
        // Ends the session everywhere: its record goes, and another instance closes its live form when next asked.
        await this.options.sessions.end(found.id);
        return new Response(null, { status: 200 });
      }
      const read = await this.read(exchange);
      const session = found.live ?? (await this.rebuild(found.id, found.session, exchange));
      return this.hand(exchange, session, read);
    }
    if (request.method !== 'POST') return transportError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');

    const read = await this.read(exchange);
    if (read.parsed !== NOT_JSON && (await this.stateless.isModern(read.request, read.parsed))) return this.answerStateless(exchange, read);
    const initialize = initializeOf(read.parsed);
    const session = this.start(this.options.ids.mint('session'), initialize && { caller, initialize });
    await session.server.connect(session.transport);
    const response = await this.hand(exchange, session, read);
    // The SDK answers anything but an initialize request without opening a session; drop ours then.
    if (!session.transport.sessionId) await session.close();
    return response;
  }

  /**
   * A 2026-07-28 request: answered by a server of its own, with no session looked up or stored.
   * A call refused over a breaker or budget answers 429 as on a session.
   */
  private async answerStateless({ token, caller, pages }: Exchange, { request, parsed }: ReadExchange): Promise<Response> {
    const rateLimited = new RateLimitedRequests();
    const answered = await this.stateless.answer(request, parsed, doorAuthInfo(token, caller, pages), rateLimited);
    return rateLimited.empty ? answered : overLimit(answered, rateLimited.take(requestIdsOf(parsed)));
  }

  /** Where the person answers, for the door at `urls`; null when the chrome's place is not configured. */
  private pagesFor(urls: DoorUrls): PersonPages | null {
    const { chromeUrl } = this.options;
    if (!chromeUrl) return null;
    let pages = this.pages.get(urls);
    if (!pages) {
      pages = personPagesOf(chromeUrl, urls.origin);
      this.pages.set(urls, pages);
    }
    return pages;
  }

  /**
   * An SDK transport and server for session `id`. With `opening`, the session is new: it is stored
   * once the SDK accepts its `initialize`. Without, it is a stored session being rebuilt here.
   */
  private start(id: string, opening: { caller: DoorCaller; initialize: DoorSessionInitialize } | null): TransportSession {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // Plain JSON answers: a tool result is one response, and JSON costs less than an SSE stream.
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
      ...defined({
        onsessioninitialized: opening
          ? async () => {
              const { caller, initialize } = opening;
              await this.options.sessions.open({ id, subject: caller.subject, clientId: caller.clientId, initialize }, session);
            }
          : undefined,
      }),
    });
    const closing = new Set<() => void>();
    // Set before the server connects: it keeps these and chains its own.
    transport.onclose = () => {
      this.options.sessions.forget(id);
      for (const listener of closing) listener();
      closing.clear();
    };
    transport.onerror = (error) => this.options.logger.warn('door transport error', { session: id, cause: error.message });
    const rateLimited = new RateLimitedRequests();
    const server = doorServer(this.options.server, this.options.door, id, rateLimited);
    let streams = 0;
    const inFlight = new InFlightRequests();
    const session: TransportSession = {
      id,
      transport,
      server,
      inFlight,
      rateLimited,
      get streaming() {
        return streams > 0;
      },
      get busy() {
        return inFlight.size > 0;
      },
      streamOpened: () => {
        streams++;
        return () => void streams--;
      },
      whenClosed: (listener) => {
        closing.add(listener);
        return () => closing.delete(listener);
      },
      close: async () => {
        await server.close();
      },
    };
    return session;
  }

  /** A stored session's SDK transport and server, rebuilt here by replaying the client's `initialize`; one rebuild at a time. */
  private rebuild(id: string, stored: DoorSessionPrimitives, exchange: Exchange): Promise<TransportSession> {
    let pending = this.rebuilding.get(id);
    if (!pending) {
      pending = this.replay(id, stored, exchange).finally(() => this.rebuilding.delete(id));
      this.rebuilding.set(id, pending);
    }
    return pending;
  }

  private async replay(
    id: string,
    stored: DoorSessionPrimitives,
    { request, urls, token, caller, pages }: Exchange,
  ): Promise<TransportSession> {
    const url = `${urls.resource}${searchOf(request.url)}`;
    const session = this.start(id, null);
    await session.server.connect(session.transport);
    const authInfo = doorAuthInfo(token, caller, pages);
    const post = (message: object, headers: Record<string, string> = {}) =>
      session.transport.handleRequest(
        new Request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(message),
        }),
        { authInfo },
      );
    const answer = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: stored.initialize });
    await answer.body?.cancel();
    if (!answer.ok) {
      await session.close();
      throw new Error(`the stored session ${id} could not be rebuilt (${answer.status})`);
    }
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id })).body?.cancel();
    this.options.sessions.keep(session, stored);
    return session;
  }

  /** The request and its parsed body (a body it cannot take throws, and `answer` refuses it). */
  private read({ request, web }: Exchange): Promise<ReadExchange> {
    return readExchange(request, web, MAX_BODY_BYTES);
  }

  /** Hands the request to the SDK transport, with the caller it was admitted as, and answers its `Response`. */
  private async hand({ request, web, token, caller, pages }: Exchange, session: TransportSession, read: ReadExchange): Promise<Response> {
    const ids = requestIdsOf(read.parsed);
    if (!session.inFlight.claim(ids))
      return transportError(400, -32600, 'Invalid Request: a request id is already in flight on this session');
    try {
      const answered = await answerOf(session, read, doorAuthInfo(token, caller, pages));
      const response = overLimit(answered, session.rateLimited.take(ids));
      if (request.method === 'GET' && response.ok) {
        // An open event stream: the session's live form here stays checked against the store while it lasts.
        web.onClose(session.streamOpened());
      }
      return response;
    } finally {
      session.inFlight.release(ids);
      // Refused requests whose answer never came back this way (the session closed first).
      session.rateLimited.forget(ids);
    }
  }
}

/** The params of a lone `initialize` request in the body, as stored with its session; null for anything else. */
function initializeOf(message: unknown): DoorSessionInitialize | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'initialize' || typeof params !== 'object' || params === null) return null;
  const { protocolVersion, capabilities, clientInfo } = params as Record<string, unknown>;
  if (typeof protocolVersion !== 'string' || !isObject(capabilities) || !isObject(clientInfo)) return null;
  return { protocolVersion, capabilities, clientInfo };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The SDK's answer to a request. One still waiting when the session closes (its person was
 * revoked, or the session was evicted) would never get one: it answers as an unknown session. An
 * answer the closing itself produced (a DELETE's) settles within the same turn, before that.
 */
function answerOf(session: TransportSession, { request, parsed }: ReadExchange, authInfo: AuthInfo): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const stop = session.whenClosed(() => setImmediate(() => resolve(transportError(404, -32001, 'Session not found'))));
    const options = parsed === undefined || parsed === NOT_JSON ? { authInfo } : { authInfo, parsedBody: parsed };
    session.transport.handleRequest(request, options).then(resolve, reject).finally(stop);
  });
}

/**
 * A JSON answer whose every request was refused as rate limited, as HTTP 429 with `Retry-After`
 * (the whole request refused, as the transport specification lets a server answer input it does
 * not accept): the same JSON-RPC error body, so a client reading the body reads the same answer.
 * An event stream has sent its 200 already; it keeps it and the errors inside.
 */
function overLimit(response: Response, refused: { retryAfterSeconds: number | null } | null): Response {
  if (!refused || response.status !== 200 || !response.headers.get('content-type')?.startsWith('application/json')) return response;
  const headers = new Headers(response.headers);
  if (refused.retryAfterSeconds !== null) headers.set('retry-after', String(refused.retryAfterSeconds));
  return new Response(response.body, { status: 429, headers });
}

interface Exchange {
  readonly request: Request;
  readonly web: WebExchange;
  readonly urls: DoorUrls;
  readonly token: string;
  readonly caller: DoorCaller;
  /** The chrome's pages where the person answers, absolute; null when the chrome's place is not configured. */
  readonly pages: PersonPages | null;
}

/** A JSON-RPC error about the HTTP exchange itself (no request id), as the SDK transport writes one. */
function transportError(status: number, code: number, message: string): Response {
  return jsonResponse(status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * For the span: a request on a session, one that may open one, or a 2026-07-28 request (its
 * `MCP-Protocol-Version` names a revision without sessions).
 */
function sessionOf(request: Request): 'existing' | 'new' | 'none' {
  if (request.headers.get('mcp-session-id')) return 'existing';
  return (request.headers.get('mcp-protocol-version') ?? '') >= FIRST_MODERN ? 'none' : 'new';
}

/** The query of a URL (`?` and after, without a fragment; '' when there is none or it is empty). */
function searchOf(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return '';
  const hash = url.indexOf('#', at);
  const search = hash === -1 ? url.slice(at) : url.slice(at, hash);
  return search === '?' ? '' : search;
}

/** The token from `Authorization: Bearer …` (RFC 6750 §2.1), or null. */
export function bearerOf(header: string): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  return match ? match[1]! : null;
}

/**
 * 401 with the RFC 9728 pointer, so a client can discover where to get a token, and the scope the
 * door needs (RFC 6750 §3), which an MCP client asks for first (MCP authorization, scope selection).
 */
function unauthorized(urls: DoorUrls, reason: Exclude<Admission, { ok: true }>['reason']): Response {
  const description = REFUSALS[reason];
  const params = [`resource_metadata="${urls.protectedResourceMetadata}"`, `scope="${DOOR_SCOPES.join(' ')}"`];
  // RFC 6750 §3.1: a request without credentials gets no error code; a bad token gets invalid_token.
  if (reason !== 'missing') params.push('error="invalid_token"', `error_description="${description}"`);
  return jsonResponse(
    401,
    { error: 'invalid_token', error_description: description },
    { 'www-authenticate': `Bearer ${params.join(', ')}`, 'cache-control': 'no-store' },
  );
}

/**
 * Any origin may call the transport (it reads no cookies: see cors.ts), and read the headers a
 * client needs. A `Response` of its own or the SDK's: both have headers that can still be set.
 */
function corsAllowed(response: Response): Response {
  response.headers.set('access-control-allow-origin', '*');
  response.headers.set('access-control-expose-headers', EXPOSED_LIST);
  return response;
}
