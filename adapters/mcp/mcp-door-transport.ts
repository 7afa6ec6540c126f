import type { Context } from 'koa';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type Server,
} from '@modelcontextprotocol/server';
import type { DoorCaller } from '../../domain/door/door-caller.js';
import { InvalidInput, PayloadTooLarge, Unavailable } from '../../domain/errors.js';
import type { DoorSessionRegistry, LiveDoorSession } from '../../ports/door-sessions.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Telemetry } from '../../ports/telemetry.js';
import type { Admission, DoorTransportUseCases } from '../../ports/use-cases/door.js';
import { allowAnyOrigin } from './cors.js';
import type { DoorUrls } from './door-urls.js';
import { doorAuthInfo, doorServer, type DoorServerInfo } from './mcp-door-server.js';
import { InFlightRequests, requestIdsOf } from './in-flight-requests.js';
import { sendWebResponse, webRequestOf } from './web-exchange.js';

/** A door session: one SDK transport and server, bound to who opened it. */
export interface TransportSession extends LiveDoorSession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  readonly inFlight: InFlightRequests;
  /** Calls `listener` once the transport closes (a DELETE, or Porter closing the session); returns how to stop listening. */
  whenClosed(listener: () => void): () => void;
}

export interface McpDoorTransportOptions {
  readonly door: DoorTransportUseCases;
  readonly sessions: DoorSessionRegistry<TransportSession>;
  readonly urlsOf: (ctx: Context) => DoorUrls;
  readonly server: DoorServerInfo;
  readonly ids: Ids;
  readonly logger: Logger;
  /** Each request in a `porter.door.request` span (server kind), in the trace its `traceparent` named. */
  readonly telemetry?: Telemetry;
}

const EXPOSED = ['Mcp-Session-Id', 'WWW-Authenticate', 'Mcp-Protocol-Version'];
/** The largest JSON-RPC body the transport reads: the SDK's own bound, applied as the body is read. */
const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

const REFUSALS: Readonly<Record<Exclude<Admission, { ok: true }>['reason'], string>> = {
  missing: 'This MCP server needs a bearer token; discover how to get one from the resource metadata',
  invalid: 'The access token is not valid (unknown, expired, revoked, or meant for another resource)',
  gone: 'The person this token was issued to is no longer known here; their sessions were closed',
};

/**
 * `{wire}/mcp`: MCP Streamable HTTP on the official SDK's Web-standard transport, one MCP session
 * per door session. Every request, on every session, is admitted afresh from its bearer token; a
 * request on a session that another subject or client opened answers as an unknown session.
 */
export class McpDoorTransport {
  constructor(private readonly options: McpDoorTransportOptions) {}

  readonly handle = async (ctx: Context): Promise<void> => {
    const telemetry = this.options.telemetry;
    if (!telemetry) return this.answer(ctx);
    return telemetry.span(
      'porter.door.request',
      { 'http.request.method': ctx.method, 'porter.door.session': ctx.get('mcp-session-id') ? 'existing' : 'new' },
      async (span) => {
        await this.answer(ctx);
        span.set({ 'http.response.status_code': ctx.status });
      },
      { kind: 'server' },
    );
  };

  private async answer(ctx: Context): Promise<void> {
    try {
      await this.serve(ctx);
    } catch (error) {
      // Whatever failed before the answer started answers in JSON-RPC's shape.
      if (ctx.headerSent) throw error;
      const unavailable = error instanceof Unavailable;
      if (!unavailable)
        this.options.logger.error('door transport failed', {
          cause: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      jsonRpcError(ctx, unavailable ? 503 : 500, -32603, unavailable ? 'The service is unavailable; try again shortly' : 'Internal error');
    }
  }

  private async serve(ctx: Context): Promise<void> {
    allowAnyOrigin(ctx, EXPOSED);
    const urls = this.options.urlsOf(ctx);
    const token = bearerOf(ctx.get('authorization'));
    const admission = await this.options.door.admitCaller.execute({ token, site: { issuer: urls.issuer, resource: urls.resource } });
    if (!admission.ok) return unauthorized(ctx, urls, admission.reason);
    const { caller } = admission;
    // Admission needs a token, so there is one here.
    const exchange: Exchange = { ctx, url: `${urls.resource}${ctx.search}`, token: token ?? '', caller };

    const sessionId = ctx.get('mcp-session-id');
    if (sessionId) {
      const session = this.options.sessions.find(sessionId, caller.subject, caller.clientId);
      if (!session) return jsonRpcError(ctx, 404, -32001, 'Session not found');
      return this.hand(exchange, session);
    }
    if (ctx.method !== 'POST') return jsonRpcError(ctx, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');

    const session = await this.start(caller);
    await this.hand(exchange, session);
    // The SDK answers anything but an initialize request without opening a session; drop ours then.
    if (!session.transport.sessionId) await session.close();
  }

  private async start(caller: DoorCaller): Promise<TransportSession> {
    const id = this.options.ids.mint('session');
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // Plain JSON answers: a tool result is one response, and JSON costs less than an SSE stream.
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
      onsessioninitialized: async () => {
        await this.options.sessions.open(session);
      },
      onsessionclosed: () => this.options.sessions.forget(id),
    });
    const closing = new Set<() => void>();
    // Set before the server connects: it keeps these and chains its own.
    transport.onclose = () => {
      this.options.sessions.forget(id);
      for (const listener of closing) listener();
      closing.clear();
    };
    transport.onerror = (error) => this.options.logger.warn('door transport error', { session: id, cause: error.message });
    const server = doorServer(this.options.server, this.options.door, id);
    const session: TransportSession = {
      id,
      subject: caller.subject,
      clientId: caller.clientId,
      transport,
      server,
      inFlight: new InFlightRequests(),
      whenClosed: (listener) => {
        closing.add(listener);
        return () => closing.delete(listener);
      },
      close: async () => {
        await server.close();
      },
    };
    await server.connect(transport);
    return session;
  }

  /**
   * Hands the request to the SDK transport as a Web `Request`, with the caller it was admitted as,
   * and sends its `Response` back through Koa.
   */
  private async hand({ ctx, url, token, caller }: Exchange, session: TransportSession): Promise<void> {
    let exchange: Awaited<ReturnType<typeof webRequestOf>>;
    try {
      exchange = await webRequestOf(ctx, url, MAX_BODY_BYTES);
    } catch (error) {
      // In the shape and words the SDK transport answers these with.
      if (error instanceof PayloadTooLarge)
        return sendWebResponse(ctx, transportError(413, -32000, `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`));
      if (error instanceof InvalidInput) return sendWebResponse(ctx, transportError(400, -32000, `Bad Request: ${error.message}`));
      throw error;
    }
    const ids = requestIdsOf(exchange.body);
    if (!session.inFlight.claim(ids))
      return sendWebResponse(ctx, transportError(400, -32600, 'Invalid Request: a request id is already in flight on this session'));
    try {
      await sendWebResponse(ctx, await answerOf(session, exchange.request, doorAuthInfo(token, caller)));
    } finally {
      session.inFlight.release(ids);
    }
  }
}

/**
 * The SDK's answer to a request. One still waiting when the session closes (its person was
 * revoked, or the session was evicted) would never get one: it answers as an unknown session. An
 * answer the closing itself produced (a DELETE's) settles within the same turn, before that.
 */
function answerOf(session: TransportSession, request: Request, authInfo: AuthInfo): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const stop = session.whenClosed(() => setImmediate(() => resolve(transportError(404, -32001, 'Session not found'))));
    session.transport.handleRequest(request, { authInfo }).then(resolve, reject).finally(stop);
  });
}

interface Exchange {
  readonly ctx: Context;
  /** The door's own URL with the request's query: what the SDK sees as the request URL. */
  readonly url: string;
  readonly token: string;
  readonly caller: DoorCaller;
}

/** A JSON-RPC error about the HTTP exchange itself (no request id), as the SDK transport writes one. */
function transportError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

/** The token from `Authorization: Bearer …` (RFC 6750 §2.1), or null. */
export function bearerOf(header: string): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  return match ? match[1]! : null;
}

/** 401 with the RFC 9728 pointer, so a client can discover where to get a token. */
function unauthorized(ctx: Context, urls: DoorUrls, reason: Exclude<Admission, { ok: true }>['reason']): void {
  const description = REFUSALS[reason];
  const params = [`resource_metadata="${urls.protectedResourceMetadata}"`];
  // RFC 6750 §3.1: a request without credentials gets no error code; a bad token gets invalid_token.
  if (reason !== 'missing') params.push('error="invalid_token"', `error_description="${description}"`);
  ctx.set('WWW-Authenticate', `Bearer ${params.join(', ')}`);
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 401;
  ctx.body = { error: 'invalid_token', error_description: description };
}

function jsonRpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}
