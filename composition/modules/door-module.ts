import { ContainerModule, type Container } from 'inversify';
import type { Context, Next } from 'koa';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import { PORTER_VERSION } from '../version.js';
import { doorContainer } from '../containers/door.js';
import { InvalidInput } from '../../domain/errors.js';
import { admitHostPrincipal, type Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { PrincipalResolver } from '../../ports/principal-resolver.js';
import type { DoorSessionRegistry } from '../../ports/door-sessions.js';
import type { DoorOAuthUseCases, DoorTransportUseCases } from '../../ports/use-cases/door.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';
import { wireRequestOf } from '../../adapters/http/wire-request.js';
import { defaultConsentPage } from '../../adapters/mcp/consent-page.js';
import { connectPage } from '../../adapters/mcp/connect-page.js';
import { preflight, allowAnyOrigin } from '../../adapters/mcp/cors.js';
import { authorizationServerMetadata, protectedResourceMetadata, serverCard } from '../../adapters/mcp/discovery-documents.js';
import { DEFAULT_BRAND, sendPage, type DoorBrand } from '../../adapters/mcp/door-page.js';
import { AUTHORIZATION_SERVER_WELL_KNOWN, doorUrls, originDocumentPaths, PROTECTED_RESOURCE_WELL_KNOWN, type DoorUrls } from '../../adapters/mcp/door-urls.js';
import { McpDoorTransport, type TransportSession } from '../../adapters/mcp/mcp-door-transport.js';
import { DoorOAuthEndpoints } from '../../adapters/mcp/oauth-endpoints.js';

interface DoorRoutes {
  readonly self: WireRoutes;
  readonly origin: WireRoutes;
}

const TRANSPORT_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID'];
const OAUTH_HEADERS = ['Authorization', 'Content-Type', 'Mcp-Protocol-Version'];

/**
 * The MCP door, loaded into the composition root only with `mcp: true`. Its services live in a
 * child container (containers/door.ts); this module hands the wire the door's two route groups:
 * `{wire}/mcp…` (self-authenticating, outside the CSRF floor and the principal resolver) and the six
 * exact origin-root discovery documents. Closing Porter closes every live door session.
 */
export const doorModule = new ContainerModule(({ bind }) => {
  bind<Container>(TOKENS.DoorContainer)
    .toDynamicValue((ctx) => doorContainer(ctx.get<Container>(TOKENS.Container)))
    .inSingletonScope()
    .onDeactivation(async (door) => {
      await door.get<DoorSessionRegistry>(TOKENS.DoorSessions).closeAll();
      await door.unbindAll();
    });
  bind<DoorRoutes>(TOKENS.DoorRoutes)
    .toDynamicValue((ctx) => doorRoutes(ctx.get<Container>(TOKENS.DoorContainer)))
    .inSingletonScope();
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => ctx.get<DoorRoutes>(TOKENS.DoorRoutes).self);
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => ctx.get<DoorRoutes>(TOKENS.DoorRoutes).origin);
});

function doorRoutes(door: Container): DoorRoutes {
  const config = door.get<PorterConfig>(TOKENS.Config);
  const logger = door.get<Logger>(TOKENS.Logger);
  const brand: DoorBrand = config.oauth?.brand ?? DEFAULT_BRAND;
  const publicOrigin = config.baseUrl ? new URL(config.baseUrl).origin : null;
  // PORTER_BASE_URL fixes the public origin (behind a proxy, Host may be internal); else the request's.
  const urlsOf = (ctx: Context): DoorUrls => doorUrls(publicOrigin ?? requestOrigin(ctx), config.mount);
  const remote = config.remoteAs ?? null;
  const transport = new McpDoorTransport({
    door: door.get<DoorTransportUseCases>(TOKENS.DoorTransportUseCases),
    sessions: door.get<DoorSessionRegistry<TransportSession>>(TOKENS.DoorSessions),
    urlsOf,
    server: { name: 'porter', version: PORTER_VERSION, instructions: `Tools of ${brand.name}. Reads run at once; writes, deletions and anything reaching outside wait for the person's approval: when a result says approval is required, ask them to approve it, then call the tool again with the same arguments.` },
    ids: door.get<Ids>(TOKENS.Ids),
    logger,
  });
  const oauth = new DoorOAuthEndpoints({
    oauth: door.get<DoorOAuthUseCases>(TOKENS.DoorOAuthUseCases),
    urlsOf,
    signedIn: signedInWith(config.oauth?.signIn ?? door.get<PrincipalResolver>(TOKENS.PrincipalResolver)),
    ...(config.oauth?.signInUrl ? { signInUrl: config.oauth.signInUrl } : {}),
    brand,
    consentPage: config.oauth?.consentPage ?? defaultConsentPage,
    clock: door.get<Clock>(TOKENS.Clock),
    logger,
  });

  const resourceMetadata = (ctx: Context) => json(ctx, protectedResourceMetadata(urlsOf(ctx), remote?.issuer ?? urlsOf(ctx).issuer, brand.name));
  const serverMetadata = (ctx: Context) => (remote ? externallyOwned(ctx, remote.issuer) : json(ctx, authorizationServerMetadata(urlsOf(ctx))));
  const card = (ctx: Context) => json(ctx, serverCard(urlsOf(ctx), { title: brand.name, version: PORTER_VERSION }));
  const MCP = '/mcp';

  const self: WireRoutes = {
    access: 'self',
    register(router) {
      router.post(MCP, transport.handle).get(MCP, transport.handle).delete(MCP, transport.handle);
      router.options(MCP, preflight(['GET', 'POST', 'DELETE'], TRANSPORT_HEADERS));
      router.all(MCP, wrongMethod(['GET', 'POST', 'DELETE'], 'json-rpc'));
      if (remote) {
        const ownedElsewhere = (ctx: Context) => externallyOwned(ctx, remote.issuer);
        for (const path of ['/authorize', '/token', '/revoke', '/register']) router.all(`${MCP}${path}`, ownedElsewhere);
      } else {
        router.get(`${MCP}/authorize`, oauth.authorize).post(`${MCP}/authorize`, oauth.consent);
        router.post(`${MCP}/token`, oauth.token).options(`${MCP}/token`, preflight(['POST'], OAUTH_HEADERS));
        router.post(`${MCP}/revoke`, oauth.revoke).options(`${MCP}/revoke`, preflight(['POST'], OAUTH_HEADERS));
        router.post(`${MCP}/register`, oauth.register).options(`${MCP}/register`, preflight(['POST'], OAUTH_HEADERS));
        for (const path of ['/token', '/revoke', '/register']) router.all(`${MCP}${path}`, wrongMethod(['POST'], 'oauth'));
      }
      router.get(`${MCP}/connect`, (ctx) => {
        const urls = urlsOf(ctx);
        sendPage(ctx, 200, connectPage({ brand, serverUrl: urls.resource, issuer: remote?.issuer ?? urls.issuer, external: remote !== null }));
      });
      // The base-path-prefixed forms of the two OAuth documents (see door-urls.ts).
      router.get(`${MCP}${PROTECTED_RESOURCE_WELL_KNOWN}`, resourceMetadata).options(`${MCP}${PROTECTED_RESOURCE_WELL_KNOWN}`, preflight(['GET'], OAUTH_HEADERS));
      router.get(`${MCP}${AUTHORIZATION_SERVER_WELL_KNOWN}`, serverMetadata).options(`${MCP}${AUTHORIZATION_SERVER_WELL_KNOWN}`, preflight(['GET'], OAUTH_HEADERS));
    },
  };

  const answerFor = (path: string) =>
    path.startsWith(PROTECTED_RESOURCE_WELL_KNOWN) ? resourceMetadata : path.startsWith(AUTHORIZATION_SERVER_WELL_KNOWN) ? serverMetadata : card;
  const origin: WireRoutes = {
    access: 'origin',
    originPaths: originDocumentPaths(config.mount),
    register(router) {
      for (const path of originDocumentPaths(config.mount)) {
        router.get(path, exactly(path, answerFor(path))).options(path, exactly(path, preflight(['GET'], OAUTH_HEADERS)));
      }
    },
  };
  return { self, origin };
}

/** The consent page's "who is signed in": the host's resolver, admitted like the wire admits it. */
function signedInWith(resolve: PrincipalResolver) {
  return async (ctx: Context): Promise<Principal | null> => {
    const principal = await resolve(wireRequestOf(ctx));
    if (!principal) return null;
    try {
      return admitHostPrincipal(principal);
    } catch {
      return null;
    }
  };
}

/** The origin the request was addressed to (`X-Forwarded-*` only when `trustProxy` is on). */
function requestOrigin(ctx: Context): string {
  try {
    return new URL(`${ctx.protocol}://${ctx.host}`).origin;
  } catch {
    throw new InvalidInput('The Host header is not a valid host');
  }
}

/** Discovery documents match their exact path only, never a prefix or a trailing-slash variant. */
function exactly(path: string, answer: (ctx: Context) => void) {
  return (ctx: Context, next: Next) => (ctx.path === path ? answer(ctx) : next());
}

/**
 * Registered after a door path's own methods: any other method answers 405 in the door's shapes
 * (JSON-RPC on the transport, OAuth's on its endpoints), never the wire's envelope.
 */
function wrongMethod(allowed: ReadonlyArray<string>, shape: 'json-rpc' | 'oauth') {
  return (ctx: Context): void => {
    allowAnyOrigin(ctx);
    ctx.set('Allow', [...allowed, 'OPTIONS'].join(', '));
    ctx.status = 405;
    const message = `Use ${allowed.join(', ')} here`;
    ctx.body = shape === 'json-rpc' ? { jsonrpc: '2.0', error: { code: -32000, message: `Method not allowed. ${message}` }, id: null } : { error: 'invalid_request', error_description: message };
  };
}

function json(ctx: Context, body: unknown): void {
  allowAnyOrigin(ctx);
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.body = body;
}

/** With `remoteAs`, the external issuer owns the authorization server: its endpoints and metadata are not here. */
function externallyOwned(ctx: Context, issuer: string): void {
  allowAnyOrigin(ctx);
  ctx.status = 404;
  ctx.body = { error: 'invalid_request', error_description: `This door's authorization server is ${issuer}; this endpoint is not served here` };
}
