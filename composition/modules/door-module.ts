import { ContainerModule, type Container } from 'inversify';
import type { Context } from 'koa';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import { PORTER_VERSION } from '../version.js';
import { doorContainer } from '../containers/door.js';
import { doorRoutes, doorUrlsFrom, type DoorRoutes } from './door-routes.js';
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
import { DEFAULT_BRAND, type DoorBrand } from '../../adapters/mcp/door-page.js';
import { McpDoorTransport, type TransportSession } from '../../adapters/mcp/mcp-door-transport.js';
import { DoorOAuthEndpoints } from '../../adapters/mcp/oauth-endpoints.js';

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
    .toDynamicValue((ctx) => doorRoutesOf(ctx.get<Container>(TOKENS.DoorContainer)))
    .inSingletonScope();
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => ctx.get<DoorRoutes>(TOKENS.DoorRoutes).self);
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => ctx.get<DoorRoutes>(TOKENS.DoorRoutes).origin);
});

function doorRoutesOf(door: Container): DoorRoutes {
  const config = door.get<PorterConfig>(TOKENS.Config);
  const logger = door.get<Logger>(TOKENS.Logger);
  const brand: DoorBrand = config.oauth?.brand ?? DEFAULT_BRAND;
  const urlsOf = doorUrlsFrom(config.baseUrl, config.mount);
  const transport = new McpDoorTransport({
    door: door.get<DoorTransportUseCases>(TOKENS.DoorTransportUseCases),
    sessions: door.get<DoorSessionRegistry<TransportSession>>(TOKENS.DoorSessions),
    urlsOf,
    server: {
      name: 'porter',
      version: PORTER_VERSION,
      instructions: `Tools of ${brand.name}. Reads run at once; writes, deletions and anything reaching outside wait for the person's approval: when a result says approval is required, ask them to approve it, then call the tool again with the same arguments.`,
    },
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
  return doorRoutes({
    mount: config.mount,
    transport,
    oauth,
    urlsOf,
    brand,
    version: PORTER_VERSION,
    remoteIssuer: config.remoteAs?.issuer ?? null,
  });
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
