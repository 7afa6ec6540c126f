import { bare, bytes, json, route, type Answer, type WireRoute } from '../../adapters/http/wire-route.js';
import { preflight } from '../../adapters/mcp/cors.js';
import { JsonRpcError, OAuthError } from '../../adapters/mcp/door-shapes.js';

/** What the door's route tables share: the transport's path, its security requirements, its answers' shapes, its preflights. */

export const OAUTH_HEADERS = ['Authorization', 'Content-Type', 'Mcp-Protocol-Version'];
export const MCP = '/mcp';

export const DOOR_TOKEN = [{ doorOAuth: [] }];
export const HOST_SESSION = [{ hostSession: [] }];

export const oauthError = (description: string): Answer => json(description, OAuthError);
export const rpcError = (description: string): Answer => json(description, JsonRpcError);
export const page = (description: string): Answer => bytes(description, 'text/html');
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': { description: '`*`: the door reads no cookies, so any origin may call.' },
  'Access-Control-Allow-Methods': { description: 'The methods of this path.' },
  'Access-Control-Allow-Headers': { description: 'The request headers a browser may send.' },
};

/** The CORS preflight of a door path: any origin may call. */
export function preflightRoute(
  id: string,
  path: string,
  methods: ReadonlyArray<string>,
  headers: ReadonlyArray<string>,
  { exact = false } = {},
): WireRoute {
  return route({
    id,
    method: 'options',
    path,
    summary: 'CORS preflight',
    responses: { 204: bare('Any origin may call.', CORS_HEADERS) },
    exact,
    web: preflight(methods, headers),
  });
}
