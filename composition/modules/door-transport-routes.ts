import { bare, bytes, json, ownBody, route, type WireRoute } from '../../adapters/http/wire-route.js';
import { JsonRpcBody } from '../../adapters/mcp/door-shapes.js';
import type { McpDoorTransport } from '../../adapters/mcp/mcp-door-transport.js';
import { DOOR_TOKEN, MCP, oauthError, preflightRoute, rpcError } from './door-route-kit.js';

const TRANSPORT_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
];

/** The MCP transport's routes: `{wire}/mcp`, every method answered by the transport's one handler. */
export function transportRoutes(transport: McpDoorTransport): WireRoute[] {
  const refusals = {
    401: {
      ...oauthError(
        'No usable bearer token. `WWW-Authenticate` points at the protected-resource metadata (`resource_metadata`), where a client discovers how to get one.',
      ),
      headers: {
        'WWW-Authenticate': { description: '`Bearer resource_metadata="…", scope="mcp"`, with `error="invalid_token"` for a bad token.' },
      },
    },
    403: rpcError(
      "An `Origin` that is neither the base URL's (`PORTER_BASE_URL`; never the request's `Host`), one in `door.allowedOrigins`, nor a loopback one on a request that came to a loopback address (MCP transport 2025-11-25).",
    ),
    404: rpcError(
      '`Mcp-Session-Id` names no session of this caller (ended, idle past its bound, or opened by another token): start a new one with `initialize`.',
    ),
    500: rpcError('Something went wrong on our side.'),
    503: rpcError('The service is unavailable; try again shortly.'),
  };
  const description =
    "MCP Streamable HTTP on the official SDK. Every request is admitted afresh from its bearer token, and runs as the person the host's `oauth.principal(subject)` resolves now (null closes their sessions). " +
    'Tool calls go through the guard: a call that needs approval answers an error result naming the approval; call again with the same arguments once the person approved it.';
  return [
    route({
      id: 'postMcpMessages',
      method: 'post',
      path: MCP,
      summary: 'Send MCP messages',
      description: `${description} An \`initialize\` request without \`Mcp-Session-Id\` opens a session.`,
      body: ownBody('A JSON-RPC message or batch.', { 'application/json': JsonRpcBody }),
      responses: {
        200: json('The JSON-RPC responses (the door answers requests in JSON).', JsonRpcBody, {
          'Mcp-Session-Id': { description: 'On `initialize`: the session to send with every later request.' },
        }),
        202: bare('Notifications or responses only: accepted.'),
        400: rpcError('Not a valid JSON-RPC message, a second `initialize`, or no `Mcp-Session-Id` where one is needed.'),
        ...refusals,
        406: rpcError('`Accept` must list both `application/json` and `text/event-stream`.'),
        413: rpcError('The body is too large.'),
        415: rpcError('`Content-Type` must be `application/json`.'),
      },
      security: DOOR_TOKEN,
      direct: true,
      web: transport.handle,
    }),
    route({
      id: 'openMcpStream',
      method: 'get',
      path: MCP,
      summary: "Open a session's server-to-client stream",
      description,
      responses: {
        200: bytes('Server-sent events carrying JSON-RPC messages.', 'text/event-stream'),
        400: rpcError('No `Mcp-Session-Id`.'),
        ...refusals,
        406: rpcError('`Accept` must list `text/event-stream`.'),
        409: rpcError('The session already has a stream open.'),
      },
      security: DOOR_TOKEN,
      direct: true,
      web: transport.handle,
    }),
    route({
      id: 'closeMcpSession',
      method: 'delete',
      path: MCP,
      summary: 'End a session',
      responses: { 200: bare('The session is closed.'), 400: rpcError('No `Mcp-Session-Id`.'), ...refusals },
      security: DOOR_TOKEN,
      direct: true,
      web: transport.handle,
    }),
    preflightRoute('preflightMcp', MCP, ['GET', 'POST', 'DELETE'], TRANSPORT_HEADERS),
  ];
}
