import {
  createMcpHandler,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { DoorCaller } from '../../domain/door/door-caller.js';
import type { DoorTransportUseCases } from '../../ports/use-cases/door.js';
import { callerOfAuthInfo, doorServer, type DoorServerInfo } from './mcp-door-server.js';
import { RateLimitedRequests } from './rate-limited-requests.js';

/**
 * MCP 2026-07-28 on the door (SEP-2575, SEP-2567): no `initialize`, no `Mcp-Session-Id`; every
 * request carries its protocol version and the client's capabilities in `_meta`, and is answered
 * by a server built for it alone, from the SDK's `createMcpHandler` (its validation ladder: an
 * unsupported revision, a malformed envelope, headers that disagree with the body are JSON-RPC
 * errors with a 4xx status). Nothing here reads or writes the session store, so any instance
 * answers any request. 2025-era traffic never reaches it: `isModern` routes it to the sessions.
 */
export class StatelessDoor {
  private readonly handler: McpHttpHandler;
  /** The refusals of each request in flight, found by its `AuthInfo` (the one object the factory is handed per request). */
  private readonly refusals = new WeakMap<AuthInfo, RateLimitedRequests>();

  constructor(
    info: DoorServerInfo,
    door: DoorTransportUseCases,
    private readonly maxRequestBodySize: number,
    onerror: (error: Error) => void,
  ) {
    this.handler = createMcpHandler(
      ({ authInfo }) => {
        const caller = callerOfAuthInfo(authInfo);
        return doorServer(
          info,
          door,
          statelessSessionOf(caller),
          (authInfo && this.refusals.get(authInfo)) ?? new RateLimitedRequests(),
          'modern',
        );
      },
      // 2025-era requests are the sessions' (McpDoorTransport); one that reaches here is refused in the SDK's words.
      { legacy: 'reject', maxRequestBodySize, onerror },
    );
  }

  /**
   * Whether the SDK would serve this request on the 2026-07-28 path (a `_meta` envelope claim, or a
   * modern `MCP-Protocol-Version`). The two plain cases are told apart here, as the SDK tells them
   * (a revision is modern when it sorts at or after the first modern one); anything else (a batch,
   * a claim that is not a string) is the SDK's `isLegacyRequest` to decide, which costs a
   * classification more per request.
   */
  isModern(request: Request, parsed: unknown): Promise<boolean> | boolean {
    const header = request.headers.get('mcp-protocol-version');
    // An `initialize` is modern only with a well-formed envelope: the SDK decides that one.
    if (isObject(parsed) && parsed.method !== 'initialize') {
      const meta = isObject(parsed.params) ? parsed.params._meta : undefined;
      const claim = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
      if (claim === undefined && (header === null || header < FIRST_MODERN)) return false;
      if (typeof claim === 'string' && claim >= FIRST_MODERN) return true;
    }
    return isLegacyRequest(request, parsed, { maxRequestBodySize: this.maxRequestBodySize }).then((legacy) => !legacy);
  }

  /** Answers one request; `rateLimited` collects the calls the server refused over a breaker or budget. */
  async answer(request: Request, parsed: unknown, authInfo: AuthInfo, rateLimited: RateLimitedRequests): Promise<Response> {
    this.refusals.set(authInfo, rateLimited);
    try {
      return await this.handler.fetch(request, { authInfo, parsedBody: parsed });
    } finally {
      this.refusals.delete(authInfo);
    }
  }

  close(): Promise<void> {
    return this.handler.close();
  }
}

/** The first protocol revision without sessions; the SDK's own boundary between the eras. */
export const FIRST_MODERN = '2026-07-28';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The guard's session for a stateless caller: there is no MCP session, so it is the person and
 * the client they connected. An identical call retried after the person approved it reuses its
 * parked approval, as on a 2025 session, and nothing is shared between two people on one client.
 */
export function statelessSessionOf(caller: DoorCaller | null): string {
  return caller ? `mcp:${caller.clientId ?? ''}:${caller.subject}` : 'mcp:';
}
