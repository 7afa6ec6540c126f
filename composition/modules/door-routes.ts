import { json, route, type WireRoute } from '../../adapters/http/wire-route.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';
import type { WebHandler } from '../../adapters/shared/web-handler.js';
import { doorAnswers, wrongMethod } from '../../adapters/mcp/door-answers.js';
import type { DoorBrand } from '../../adapters/mcp/door-page.js';
import { AuthorizationServerMetadata, ProtectedResourceMetadata, ServerCard } from '../../adapters/mcp/door-shapes.js';
import {
  AUTHORIZATION_SERVER_WELL_KNOWN,
  originDocumentPaths,
  PROTECTED_RESOURCE_WELL_KNOWN,
  type DoorUrls,
} from '../../adapters/mcp/door-urls.js';
import type { McpDoorTransport } from '../../adapters/mcp/mcp-door-transport.js';
import type { DoorOAuthEndpoints } from '../../adapters/mcp/oauth-endpoints.js';
import { MCP, OAUTH_HEADERS, oauthError, page, preflightRoute } from './door-route-kit.js';
import { externalOAuthRoutes, oauthRoutes } from './door-oauth-routes.js';
import { doorSchemes } from './door-schemes.js';
import { transportRoutes } from './door-transport-routes.js';
import { defined } from '../../domain/defined.js';

export interface DoorRoutes {
  readonly self: WireRoutes;
  readonly origin: WireRoutes;
}

export interface DoorRouteOptions {
  readonly mount: string;
  readonly transport: McpDoorTransport;
  readonly oauth: DoorOAuthEndpoints;
  /** The door's public URLs for a request from an origin (see `doorUrlsAt`). */
  readonly urlsAt: (origin: string) => DoorUrls;
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

const TAG = 'MCP door';
const PUBLIC: [] = [];

/**
 * The door's routes: `{wire}/mcp…` (self-authenticating, outside the CSRF floor and the principal
 * resolver) and the six exact origin-root discovery documents.
 */
export function doorRoutes(options: DoorRouteOptions): DoorRoutes {
  const { transport, oauth, remoteIssuer: remote } = options;
  const { resourceMetadata, rootResourceMetadata, serverMetadata, card, connectPage } = doorAnswers(options);
  const serverMetadataAnswers = {
    200: json("The door's own authorization server.", AuthorizationServerMetadata),
    ...defined({ 404: remote ? oauthError(`Not served here: ${remote} owns this door's OAuth.`) : undefined }),
  };

  // Each discovery document is served at more than one path: the same answers, each route its own id and summary.
  const resourceDocument = {
    answers: { 200: json('Where the transport gets its tokens.', ProtectedResourceMetadata) },
    answer: resourceMetadata,
  };
  // With an external issuer these only say it owns them (404): no operations of the document.
  const serverDocument = {
    answers: serverMetadataAnswers,
    answer: serverMetadata,
    ...defined({ documented: remote ? (false as const) : undefined }),
  };
  const cardDocument = { answers: { 200: json('What a client reads before it connects.', ServerCard) }, answer: card };

  const self: WireRoutes = {
    access: 'self',
    tag: TAG,
    errorShape: 'own',
    securitySchemes: doorSchemes(options),
    security: PUBLIC,
    // A method a door path does not take: 405 in the door's shapes (JSON-RPC on the transport, OAuth's elsewhere).
    refuseMethod: (path, allowed) =>
      wrongMethod(allowed, path === `${options.mount === '/' ? '' : options.mount}${MCP}` ? 'json-rpc' : 'oauth'),
    routes: [
      ...transportRoutes(transport),
      ...(remote ? externalOAuthRoutes(remote) : oauthRoutes(oauth)),
      route({
        id: 'showConnectPage',
        method: 'get',
        path: `${MCP}/connect`,
        summary: 'How to add this door to an agent',
        responses: { 200: page('The setup page.') },
        web: connectPage,
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
    refuseMethod: (_, allowed) => wrongMethod(allowed, 'oauth'),
    originPaths: paths,
    routes: documents.flatMap((doc, index) => documentRoutes(doc, paths[index]!, `${doc.id}Preflight`, { exact: true })),
  };
  return { self, origin };
}

/** A discovery document served at `path`, with its CORS preflight; `exact`: that path only, never a prefix. */
function documentRoutes(
  doc: { id: string; summary: string; answers: WireRoute['responses']; answer: WebHandler; documented?: false },
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
      ...defined({ documented: doc.documented === false ? (false as const) : undefined }),
      exact,
      web: doc.answer,
    }),
    {
      ...preflightRoute(preflightId, path, ['GET'], OAUTH_HEADERS, { exact }),
      ...defined({ documented: doc.documented === false ? (false as const) : undefined }),
    },
  ];
}
