import type { Context, Next } from 'koa';
import { DOOR_SCOPE } from '../../domain/door/door-scope.js';
import { InvalidInput } from '../../domain/errors.js';
import {
  bare,
  bytes,
  json,
  ownBody,
  route,
  type Answer,
  type SecurityRequirement,
  type WireRoute,
} from '../../adapters/http/wire-route.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';
import { allowAnyOrigin, preflight } from '../../adapters/mcp/cors.js';
import { connectPage } from '../../adapters/mcp/connect-page.js';
import { authorizationServerMetadata, protectedResourceMetadata, serverCard } from '../../adapters/mcp/discovery-documents.js';
import { sendPage, type DoorBrand } from '../../adapters/mcp/door-page.js';
import {
  AuthorizationServerMetadata,
  ClientRegistration,
  JsonRpcBody,
  JsonRpcError,
  OAuthError,
  ProtectedResourceMetadata,
  RevocationForm,
  ServerCard,
  TokenForm,
  TokenResponse,
} from '../../adapters/mcp/door-shapes.js';
import {
  AUTHORIZATION_SERVER_WELL_KNOWN,
  doorPath,
  doorUrls,
  originDocumentPaths,
  PROTECTED_RESOURCE_WELL_KNOWN,
  type DoorUrls,
} from '../../adapters/mcp/door-urls.js';
import type { McpDoorTransport } from '../../adapters/mcp/mcp-door-transport.js';
import { documentedAuthorizeQuery } from '../../adapters/mcp/oauth-authorize.js';
import { consentForm } from '../../adapters/mcp/oauth-consent.js';
import type { DoorOAuthEndpoints } from '../../adapters/mcp/oauth-endpoints.js';
import { clientMetadata } from '../../adapters/mcp/oauth-register.js';

export interface DoorRoutes {
  readonly self: WireRoutes;
  readonly origin: WireRoutes;
}

export interface DoorRouteOptions {
  readonly mount: string;
  readonly transport: McpDoorTransport;
  readonly oauth: DoorOAuthEndpoints;
  /** The door's public URLs for a request. */
  readonly urlsOf: (ctx: Context) => DoorUrls;
  readonly brand: DoorBrand;
  readonly version: string;
  /** An external issuer that owns the door's OAuth (`remoteAs`), or null for the door's own. */
  readonly remoteIssuer: string | null;
  /**
   * True when the door's URLs come from the configured base URL: the discovery documents are then
   * the same for every request and may be cached publicly. Built from the request's Host they are
   * never stored by a cache, which a forged Host could otherwise poison for everyone.
   */
  readonly fixedOrigin: boolean;
}

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
const OAUTH_HEADERS = ['Authorization', 'Content-Type', 'Mcp-Protocol-Version'];
const MCP = '/mcp';

const TAG = 'MCP door';
const DOOR_TOKEN = [{ doorOAuth: [] }];
const HOST_SESSION = [{ hostSession: [] }];
const PUBLIC: [] = [];

const oauthError = (description: string): Answer => json(description, OAuthError);
const rpcError = (description: string): Answer => json(description, JsonRpcError);
const page = (description: string): Answer => bytes(description, 'text/html');
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': { description: '`*`: the door reads no cookies, so any origin may call.' },
  'Access-Control-Allow-Methods': { description: 'The methods of this path.' },
  'Access-Control-Allow-Headers': { description: 'The request headers a browser may send.' },
};

/**
 * The door's routes: `{wire}/mcp…` (self-authenticating, outside the CSRF floor and the principal
 * resolver) and the six exact origin-root discovery documents.
 */
export function doorRoutes(options: DoorRouteOptions): DoorRoutes {
  const { transport, oauth, urlsOf, brand, remoteIssuer: remote } = options;
  const document = (ctx: Context, body: unknown): void => {
    allowAnyOrigin(ctx);
    ctx.set('Cache-Control', options.fixedOrigin ? 'public, max-age=300' : 'no-store');
    ctx.body = body;
  };
  const resourceMetadata = (ctx: Context) =>
    document(ctx, protectedResourceMetadata(urlsOf(ctx), remote ?? urlsOf(ctx).issuer, brand.name));
  // The root form describes the resource its well-known URL is derived from (RFC 9728 §3.3): the
  // origin, whose protected resource (the transport) the same authorization server serves.
  const rootResourceMetadata = (ctx: Context) =>
    document(ctx, { ...protectedResourceMetadata(urlsOf(ctx), remote ?? urlsOf(ctx).issuer, brand.name), resource: urlsOf(ctx).origin });
  const serverMetadata = (ctx: Context) =>
    remote ? externallyOwned(ctx, remote) : document(ctx, authorizationServerMetadata(urlsOf(ctx)));
  const card = (ctx: Context) => document(ctx, serverCard(urlsOf(ctx), { title: brand.name, version: options.version }));
  const serverMetadataAnswers = {
    200: json("The door's own authorization server.", AuthorizationServerMetadata),
    ...(remote ? { 404: oauthError(`Not served here: ${remote} owns this door's OAuth.`) } : {}),
  };

  // Each discovery document is served at more than one path: the same answers, each route its own id and summary.
  const resourceDocument = {
    answers: { 200: json('Where the transport gets its tokens.', ProtectedResourceMetadata) },
    answer: resourceMetadata,
  };
  // With an external issuer these only say it owns them (404): no operations of the document.
  const serverDocument = { answers: serverMetadataAnswers, answer: serverMetadata, ...(remote ? { documented: false as const } : {}) };
  const cardDocument = { answers: { 200: json('What a client reads before it connects.', ServerCard) }, answer: card };

  const self: WireRoutes = {
    access: 'self',
    tag: TAG,
    errorShape: 'own',
    securitySchemes: doorSchemes(options),
    security: PUBLIC,
    // A method a door path does not take: 405 in the door's shapes (JSON-RPC on the transport, OAuth's elsewhere).
    refuseMethod: (ctx, allowed) =>
      wrongMethod(allowed, ctx.path === `${options.mount === '/' ? '' : options.mount}${MCP}` ? 'json-rpc' : 'oauth')(ctx),
    routes: [
      ...transportRoutes(transport),
      ...(remote ? externalOAuthRoutes(remote) : oauthRoutes(oauth)),
      route({
        id: 'showConnectPage',
        method: 'get',
        path: `${MCP}/connect`,
        summary: 'How to add this door to an agent',
        responses: { 200: page('The setup page.') },
        handle: (ctx) => {
          const urls = urlsOf(ctx);
          sendPage(ctx, 200, connectPage({ brand, serverUrl: urls.resource, issuer: remote ?? urls.issuer, external: remote !== null }));
        },
      }),
      // The base-path-prefixed forms of the two OAuth documents (see door-urls.ts).
      ...documentRoutes(
        { id: 'getDoorProtectedResourceMetadata', summary: 'RFC 9728 metadata of the transport', ...resourceDocument },
        `${MCP}${PROTECTED_RESOURCE_WELL_KNOWN}`,
        'preflightDoorProtectedResourceMetadata',
      ),
      ...documentRoutes(
        { id: 'getDoorAuthorizationServerMetadata', summary: "RFC 8414 metadata of the door's authorization server", ...serverDocument },
        `${MCP}${AUTHORIZATION_SERVER_WELL_KNOWN}`,
        'preflightDoorAuthorizationServerMetadata',
      ),
    ],
  };

  const paths = originDocumentPaths(options.mount);
  const documents = [
    { id: 'getProtectedResourceMetadata', summary: 'RFC 9728 metadata of the transport (path insertion)', ...resourceDocument },
    {
      id: 'getAuthorizationServerMetadata',
      summary: "RFC 8414 metadata of the door's authorization server (path insertion)",
      ...serverDocument,
    },
    {
      id: 'getRootProtectedResourceMetadata',
      summary: 'RFC 9728 metadata of the origin (root form): the resource is the origin, with the same authorization server',
      ...resourceDocument,
      answer: rootResourceMetadata,
    },
    {
      id: 'getRootAuthorizationServerMetadata',
      summary: "RFC 8414 metadata of the door's authorization server (root form)",
      ...serverDocument,
    },
    { id: 'getServerCard', summary: 'The MCP Server Card', ...cardDocument },
    { id: 'getServerCardAlias', summary: 'The MCP Server Card (alternative path)', ...cardDocument },
  ];
  const origin: WireRoutes = {
    access: 'origin',
    tag: 'Discovery',
    errorShape: 'own',
    refuseMethod: (ctx, allowed) => wrongMethod(allowed, 'oauth')(ctx),
    originPaths: paths,
    routes: documents.flatMap((doc, index) => documentRoutes(doc, paths[index]!, `${doc.id}Preflight`, { exact: true })),
  };
  return { self, origin };
}

function transportRoutes(transport: McpDoorTransport): WireRoute[] {
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
  const handle = (ctx: Context) => transport.handle(ctx);
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
      handle,
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
      handle,
    }),
    route({
      id: 'closeMcpSession',
      method: 'delete',
      path: MCP,
      summary: 'End a session',
      responses: { 200: bare('The session is closed.'), 400: rpcError('No `Mcp-Session-Id`.'), ...refusals },
      security: DOOR_TOKEN,
      direct: true,
      handle,
    }),
    preflightRoute('preflightMcp', MCP, ['GET', 'POST', 'DELETE'], TRANSPORT_HEADERS),
  ];
}

function oauthRoutes(oauth: DoorOAuthEndpoints): WireRoute[] {
  const failures = {
    500: oauthError('Something went wrong on our side.'),
    503: oauthError('`temporarily_unavailable`: the store cannot do this step exactly once; try again.'),
  };
  // The browser endpoints answer their failures with a page a person reads.
  const pageFailures = {
    500: page('Something went wrong on our side.'),
    503: page('The service is unavailable; try again shortly.'),
  };
  const client: ReadonlyArray<SecurityRequirement> = [{ doorClientBasic: [] }, {}];
  /**
   * An endpoint OAuth clients call from any origin (token, revoke, register): a POST that answers
   * in OAuth's shape, its failures included, with its CORS preflight beside it.
   */
  const clientEndpoint = (
    name: 'token' | 'revoke' | 'register',
    declaration: Pick<WireRoute, 'id' | 'summary' | 'description' | 'body' | 'responses' | 'security'>,
  ): WireRoute[] => [
    route({
      ...declaration,
      method: 'post',
      path: `${MCP}/${name}`,
      responses: { ...declaration.responses, ...failures },
      handle: (ctx) => oauth[name](ctx),
    }),
    preflightRoute(`preflight${name[0]!.toUpperCase()}${name.slice(1)}`, `${MCP}/${name}`, ['POST'], OAUTH_HEADERS),
  ];
  return [
    route({
      id: 'authorize',
      method: 'get',
      path: `${MCP}/authorize`,
      summary: 'Begin an authorization (OAuth 2.1, PKCE S256 only)',
      description:
        "A person signed in with the host sees the consent page; anyone else is sent to sign in first. A request the client's redirect URI can hear about is answered by redirecting there with `error` (PKCE missing or not `S256` included).",
      query: documentedAuthorizeQuery,
      responses: {
        200: page('The consent page (it posts back here).'),
        302: bare("A redirect: to the client's redirect URI (with `code` and `state`, or `error`), or to the host's sign-in page.", {
          Location: { description: 'Where to go.' },
        }),
        400: {
          description: 'A request with nothing to redirect to: a page for browsers, OAuth JSON for anything else.',
          content: { 'text/html': null, 'application/json': OAuthError },
        },
        401: page('Sign in with the host first (when the host has no sign-in URL to redirect to).'),
        ...pageFailures,
      },
      security: HOST_SESSION,
      handle: (ctx) => oauth.authorize(ctx),
    }),
    route({
      id: 'answerConsent',
      method: 'post',
      path: `${MCP}/authorize`,
      summary: 'Answer the consent page',
      description:
        'Same-site only (Origin and Fetch Metadata are checked); the handle is single-use and bound to the person who saw the page.',
      body: ownBody('The consent form.', { 'application/x-www-form-urlencoded': consentForm }),
      responses: {
        303: bare("Back to the client's redirect URI, with `code` or `error=access_denied`.", {
          Location: { description: 'Where to go.' },
        }),
        400: {
          description:
            'The form is incomplete, or its handle unknown, used or expired (it is single-use): a page for browsers, OAuth JSON for anything else.',
          content: { 'text/html': null, 'application/json': OAuthError },
        },
        403: {
          description: 'The form was sent from another site: a page for browsers, OAuth JSON for anything else.',
          content: { 'text/html': null, 'application/json': OAuthError },
        },
        ...pageFailures,
      },
      security: HOST_SESSION,
      handle: (ctx) => oauth.consent(ctx),
    }),
    ...clientEndpoint('token', {
      id: 'issueTokens',
      summary: 'Exchange a code, or refresh',
      description:
        'Refresh tokens rotate: a rotated one presented again revokes its whole family, except within the refresh grace window (`oauth.refreshGraceSeconds`): requests of its own client that raced the rotation, and one replay after it, get working tokens of the same family; a second replay revokes the family. Any requested scope is narrowed to `mcp`. Never cached.',
      body: ownBody('The token request, form-encoded.', { 'application/x-www-form-urlencoded': TokenForm }),
      responses: {
        200: json('The tokens.', TokenResponse),
        400: oauthError('`invalid_request`, `invalid_grant`, `unsupported_grant_type`, `invalid_scope` or `invalid_target`.'),
        401: {
          ...oauthError('`invalid_client`: the client did not authenticate.'),
          headers: {
            'WWW-Authenticate': {
              description: '`Basic realm="porter-door"`: an unknown `client_id`, or a client that failed to authenticate.',
            },
          },
        },
      },
      security: client,
    }),
    ...clientEndpoint('revoke', {
      id: 'revokeToken',
      summary: 'Revoke a token (RFC 7009)',
      body: ownBody('The revocation request, form-encoded.', { 'application/x-www-form-urlencoded': RevocationForm }),
      responses: {
        200: bare('Revoked, or no such token: the answer is the same (an empty body).'),
        400: oauthError(
          'Not form-encoded, no `token` or `client_id`, unreadable Basic credentials, an unknown or unauthenticated client, or a token of another client.',
        ),
      },
      security: client,
    }),
    ...clientEndpoint('register', {
      id: 'registerClient',
      summary: 'Register a client (RFC 7591)',
      body: ownBody('Client metadata.', { 'application/json': clientMetadata }),
      responses: {
        201: json('The registered client (a confidential client gets its secret here, once).', ClientRegistration),
        400: oauthError('`invalid_client_metadata` or `invalid_redirect_uri`.'),
      },
    }),
  ];
}

/**
 * With `remoteAs`, the external issuer owns the authorization server: its endpoints are not here,
 * and say so in OAuth's shape. They only refuse, so they are no operations of the document.
 */
function externalOAuthRoutes(issuer: string): WireRoute[] {
  return ['authorize', 'token', 'revoke', 'register'].map((name) =>
    route({
      id: `refuse${name[0]!.toUpperCase()}${name.slice(1)}`,
      method: 'all',
      documented: false,
      path: `${MCP}/${name}`,
      summary: `Not served here: ${issuer} owns this door's OAuth`,
      responses: { 404: oauthError('The external issuer owns this endpoint.') },
      handle: (ctx) => externallyOwned(ctx, issuer),
    }),
  );
}

/** A discovery document served at `path`, with its CORS preflight; `exact`: that path only, never a prefix. */
function documentRoutes(
  doc: { id: string; summary: string; answers: WireRoute['responses']; answer: (ctx: Context) => void; documented?: false },
  path: string,
  preflightId: string,
  { exact = false } = {},
): WireRoute[] {
  return [
    route({
      id: doc.id,
      method: 'get',
      path,
      summary: doc.summary,
      responses: doc.answers,
      ...(doc.documented === false ? { documented: false as const } : {}),
      handle: exact ? (ctx, _input, next) => exactly(path, ctx, next, doc.answer) : doc.answer,
    }),
    {
      ...preflightRoute(preflightId, path, ['GET'], OAUTH_HEADERS, { exact }),
      ...(doc.documented === false ? { documented: false as const } : {}),
    },
  ];
}

function preflightRoute(
  id: string,
  path: string,
  methods: ReadonlyArray<string>,
  headers: ReadonlyArray<string>,
  { exact = false } = {},
): WireRoute {
  const answer = preflight(methods, headers);
  return route({
    id,
    method: 'options',
    path,
    summary: 'CORS preflight',
    responses: { 204: bare('Any origin may call.', CORS_HEADERS) },
    handle: exact ? (ctx, _input, next) => exactly(path, ctx, next, answer) : answer,
  });
}

function doorSchemes(options: DoorRouteOptions): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
  const door = doorPath(options.mount);
  const resourceMetadata = `${PROTECTED_RESOURCE_WELL_KNOWN}${door}`;
  if (options.remoteIssuer) {
    return {
      doorOAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: `Access tokens from ${options.remoteIssuer}, which owns this door's OAuth (verified against its JWKS). Discover it from the protected-resource metadata at \`${resourceMetadata}\` (RFC 9728).`,
      },
    };
  }
  const metadata = `${AUTHORIZATION_SERVER_WELL_KNOWN}${door}`;
  return {
    doorOAuth: {
      type: 'oauth2',
      description: `The door's own OAuth 2.1 server: PKCE S256 only, dynamic client registration at \`${door}/register\`, rotating refresh tokens. Clients discover it from \`${resourceMetadata}\` (RFC 9728) and \`${metadata}\` (RFC 8414).`,
      flows: {
        authorizationCode: {
          authorizationUrl: `${door}/authorize`,
          tokenUrl: `${door}/token`,
          refreshUrl: `${door}/token`,
          scopes: { [DOOR_SCOPE]: "Use the host's tools through MCP as the person who consented." },
        },
      },
      'x-oauth2-metadata-url': metadata,
    },
    doorClientBasic: {
      type: 'http',
      scheme: 'basic',
      description: "`client_secret_basic`: a confidential client's id and secret (public clients send `client_id` in the form).",
    },
  };
}

/** The origin of `{protocol}://{host}` as the request gave them (`X-Forwarded-*` only when `trustProxy` is on). */
function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    throw new InvalidInput('The Host header is not a valid host');
  }
}

/** How many request origins' URLs are kept: a host answers under a handful of names. */
const REMEMBERED_ORIGINS = 16;

/**
 * The door's URLs, from PORTER_BASE_URL's origin when set (behind a proxy, Host may be internal),
 * else the request's. Every request of the transport asks: the answer for an origin is kept, for
 * a few origins (a forged Host only evicts the others).
 */
export function doorUrlsFrom(baseUrl: string | undefined, mount: string): (ctx: Context) => DoorUrls {
  if (baseUrl) {
    const fixed = doorUrls(new URL(baseUrl).origin, mount);
    return () => fixed;
  }
  const remembered = new Map<string, DoorUrls>();
  return (ctx) => {
    const address = `${ctx.protocol}://${ctx.host}`;
    let urls = remembered.get(address);
    if (!urls) {
      urls = doorUrls(originOf(address), mount);
      if (remembered.size >= REMEMBERED_ORIGINS) remembered.clear();
      remembered.set(address, urls);
    }
    return urls;
  };
}

/** Discovery documents match their exact path only, never a prefix or a trailing-slash variant. */
function exactly(path: string, ctx: Context, next: Next, answer: (ctx: Context) => void): unknown {
  return ctx.path === path ? answer(ctx) : next();
}

/**
 * A method a door path does not take: 405 in the door's shapes (JSON-RPC on the transport, OAuth's
 * on its endpoints and documents), never the wire's envelope; `allowed` as the router found them.
 */
function wrongMethod(allowed: ReadonlyArray<string>, shape: 'json-rpc' | 'oauth') {
  return (ctx: Context): void => {
    allowAnyOrigin(ctx);
    ctx.set('Allow', allowed.join(', '));
    ctx.status = 405;
    const message = `Use ${allowed.filter((method) => method !== 'HEAD' && method !== 'OPTIONS').join(', ')} here`;
    ctx.body =
      shape === 'json-rpc'
        ? { jsonrpc: '2.0', error: { code: -32000, message: `Method not allowed. ${message}` }, id: null }
        : { error: 'invalid_request', error_description: message };
  };
}

function externallyOwned(ctx: Context, issuer: string): void {
  allowAnyOrigin(ctx);
  ctx.status = 404;
  ctx.body = {
    error: 'invalid_request',
    error_description: `This door's authorization server is ${issuer}; this endpoint is not served here`,
  };
}
