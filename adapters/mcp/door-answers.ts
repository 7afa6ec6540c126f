import type { WebHandler } from '../shared/web-handler.js';
import { ANY_ORIGIN } from './cors.js';
import { connectPage } from './connect-page.js';
import { authorizationServerMetadata, protectedResourceMetadata, serverCard } from './discovery-documents.js';
import { pageResponse, type DoorBrand } from './door-page.js';
import type { DoorUrls } from './door-urls.js';
import { jsonResponse } from './web-exchange.js';

/**
 * The door's answers other than the transport's and the OAuth endpoints': its discovery
 * documents, its setup page, the refusals of its paths. The route table (composition) only names
 * them; the HTTP work is here.
 */
export interface DoorAnswersOptions {
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

export interface DoorAnswers {
  /** RFC 9728 metadata of the transport. */
  readonly resourceMetadata: WebHandler;
  /**
   * The root form describes the resource its well-known URL is derived from (RFC 9728 §3.3): the
   * origin, whose protected resource (the transport) the same authorization server serves.
   */
  readonly rootResourceMetadata: WebHandler;
  /** RFC 8414 metadata of the door's authorization server; with an external issuer, a 404 naming it. */
  readonly serverMetadata: WebHandler;
  readonly card: WebHandler;
  readonly connectPage: WebHandler;
}

export function doorAnswers(options: DoorAnswersOptions): DoorAnswers {
  const { brand, remoteIssuer: remote, urlsAt } = options;
  const cache = { 'cache-control': options.fixedOrigin ? 'public, max-age=300' : 'no-store' };
  const document = (body: unknown): Response => jsonResponse(200, body, { ...ANY_ORIGIN, ...cache });
  return {
    resourceMetadata: (_, { origin }) => {
      const urls = urlsAt(origin);
      return document(protectedResourceMetadata(urls, remote ?? urls.issuer, brand.name));
    },
    rootResourceMetadata: (_, { origin }) => {
      const urls = urlsAt(origin);
      return document({ ...protectedResourceMetadata(urls, remote ?? urls.issuer, brand.name), resource: urls.origin });
    },
    serverMetadata: remote ? externallyOwned(remote) : (_, { origin }) => document(authorizationServerMetadata(urlsAt(origin))),
    card: (_, { origin }) => document(serverCard(urlsAt(origin), { title: brand.name, version: options.version })),
    connectPage: (_, { origin }) => {
      const urls = urlsAt(origin);
      return pageResponse(200, connectPage({ brand, serverUrl: urls.resource, issuer: remote ?? urls.issuer, external: remote !== null }));
    },
  };
}

/**
 * A method a door path does not take: 405 in the door's shapes (JSON-RPC on the transport, OAuth's
 * on its endpoints and documents), never the wire's envelope; `allowed` as the router found them.
 */
export function wrongMethod(allowed: ReadonlyArray<string>, shape: 'json-rpc' | 'oauth'): Response {
  const message = `Use ${allowed.filter((method) => method !== 'HEAD' && method !== 'OPTIONS').join(', ')} here`;
  const body =
    shape === 'json-rpc'
      ? { jsonrpc: '2.0', error: { code: -32000, message: `Method not allowed. ${message}` }, id: null }
      : { error: 'invalid_request', error_description: message };
  return jsonResponse(405, body, { ...ANY_ORIGIN, allow: allowed.join(', ') });
}

/** An OAuth endpoint or document the external issuer owns: a 404 in OAuth's shape naming it. */
export function externallyOwned(issuer: string): WebHandler {
  const body = {
    error: 'invalid_request',
    error_description: `This door's authorization server is ${issuer}; this endpoint is not served here`,
  };
  return () => jsonResponse(404, body, ANY_ORIGIN);
}
