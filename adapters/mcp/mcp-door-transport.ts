import type { Context } from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { DoorCaller } from '../../domain/door/door-caller.js';
import { DomainError } from '../../domain/errors.js';
import type { DoorSessionRegistry, LiveDoorSession } from '../../ports/door-sessions.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Admission, DoorTransportUseCases } from '../../ports/use-cases/door.js';
import { allowAnyOrigin } from './cors.js';
import type { DoorUrls } from './door-urls.js';
import { doorServer, type DoorServerInfo } from './mcp-door-server.js';

/** A door session: one SDK transport and server, bound to who opened it. */
export interface TransportSession extends LiveDoorSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** The caller the latest request on this session was admitted as. */
  caller: DoorCaller;
}

export interface McpDoorTransportOptions {
  readonly door: DoorTransportUseCases;
  readonly sessions: DoorSessionRegistry<TransportSession>;
  readonly urlsOf: (ctx: Context) => DoorUrls;
  readonly server: DoorServerInfo;
  readonly ids: Ids;
  readonly logger: Logger;
}

const EXPOSED = ['Mcp-Session-Id', 'WWW-Authenticate', 'Mcp-Protocol-Version'];

const REFUSALS: Readonly<Record<Exclude<Admission, { ok: true }>['reason'], string>> = {
  missing: 'This MCP server needs a bearer token; discover how to get one from the resource metadata',
  invalid: 'The access token is not valid (unknown, expired, revoked, or meant for another resource)',
  gone: 'The person this token was issued to is no longer known here; their sessions were closed',
};

/**
 * `{wire}/mcp`: MCP Streamable HTTP on the official SDK, one MCP session per door session. Every
 * request, on every session, is admitted afresh from its bearer token; a request on a session that
 * another subject or client opened answers as an unknown session.
 */
export class McpDoorTransport {
  constructor(private readonly options: McpDoorTransportOptions) {}

  readonly handle = async (ctx: Context): Promise<void> => {
    try {
      await this.serve(ctx);
    } catch (error) {
      // Whatever failed before the SDK took the response over answers in JSON-RPC's shape.
      if (ctx.headerSent || !ctx.respond) throw error;
      const unavailable = error instanceof DomainError && error.code === 'unavailable';
      if (!unavailable) this.options.logger.error('door transport failed', { cause: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      jsonRpcError(ctx, unavailable ? 503 : 500, -32603, unavailable ? 'The service is unavailable; try again shortly' : 'Internal error');
    }
  };

  private async serve(ctx: Context): Promise<void> {
    allowAnyOrigin(ctx, EXPOSED);
    const urls = this.options.urlsOf(ctx);
    const admission = await this.options.door.admitCaller.execute({ token: bearerOf(ctx.get('authorization')), site: { issuer: urls.issuer, resource: urls.resource } });
    if (!admission.ok) return unauthorized(ctx, urls, admission.reason);
    const { caller } = admission;

    const sessionId = ctx.get('mcp-session-id');
    if (sessionId) {
      const session = this.options.sessions.find(sessionId, caller.subject, caller.clientId);
      if (!session) return jsonRpcError(ctx, 404, -32001, 'Session not found');
      session.caller = caller;
      return this.hand(ctx, session);
    }
    if (ctx.method !== 'POST') return jsonRpcError(ctx, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');

    const session = await this.start(caller);
    await this.hand(ctx, session);
    // The SDK answers anything but an initialize request without opening a session; drop ours then.
    if (!session.transport.sessionId) await session.close();
  }

  private async start(caller: DoorCaller): Promise<TransportSession> {
    const id = this.options.ids.mint('session');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // Plain JSON answers: a tool result is one response, and JSON costs less than an SSE stream.
      enableJsonResponse: true,
      onsessioninitialized: async () => {
        await this.options.sessions.open(session);
      },
      onsessionclosed: () => this.options.sessions.forget(id),
    });
    const session: TransportSession = {
      id,
      subject: caller.subject,
      clientId: caller.clientId,
      caller,
      transport,
      server: doorServer(this.options.server, this.options.door, id, () => session.caller),
      close: async () => {
        await session.server.close();
      },
    };
    transport.onclose = () => this.options.sessions.forget(id);
    transport.onerror = (error) => this.options.logger.warn('door transport error', { session: id, cause: error.message });
    await session.server.connect(transport);
    return session;
  }

  /**
   * Hands the raw request to the SDK transport, which reads the body and writes the response itself
   * (headers Koa already set, such as CORS, are on the Node response and go out with it).
   */
  private async hand(ctx: Context, session: TransportSession): Promise<void> {
    ctx.respond = false;
    await session.transport.handleRequest(ctx.req, ctx.res);
  }
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
