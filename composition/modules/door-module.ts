import { type Container } from 'inversify';
import { get, porterModule, TOKENS } from '../tokens.js';
import { DOOR_TOKENS } from './door-tokens.js';
import { PORTER_VERSION } from '../version.js';
import { doorContainer } from '../containers/door.js';
import { doorRoutes, type DoorRoutes } from './door-routes.js';
import { HostPrincipals } from '../../adapters/http/floor/host-principal.js';
import { signedInWith } from '../../adapters/http/floor/signed-in.js';
import { doorUrlsAt } from '../../adapters/mcp/door-urls.js';
import { defaultConsentPage } from '../../adapters/mcp/consent-page.js';
import { DEFAULT_BRAND, type DoorBrand } from '../../adapters/mcp/door-page.js';
import { McpDoorTransport } from '../../adapters/mcp/mcp-door-transport.js';
import { mcpAppPage } from '../../adapters/apps/mcp-app-page.js';
import { DoorOAuthEndpoints } from '../../adapters/mcp/oauth-endpoints.js';
import { TracedUseCase } from '../../application/shared/traced-use-case.js';
import { ATTR, type Telemetry } from '../../ports/telemetry.js';
import type { DoorTransportUseCases } from '../../ports/use-cases/door.js';
import { defined } from '../../domain/defined.js';

/**
 * The MCP door, loaded into the composition root only with `mcp: true`. Its services live in a
 * child container (containers/door.ts); this module hands the wire the door's two route groups:
 * `{wire}/mcp…` (self-authenticating, outside the CSRF floor and the principal resolver) and the six
 * exact origin-root discovery documents. Closing Porter closes every live door session.
 */
export const doorModule = porterModule((bind) => {
  bind(DOOR_TOKENS.DoorContainer)
    .toDynamicValue((ctx) => doorContainer(get(ctx, TOKENS.Container)))
    .inSingletonScope()
    .onDeactivation(async (door) => {
      clearInterval(rechecks.get(door));
      await get(door, DOOR_TOKENS.DoorSessions).closeAll();
      await door.unbindAllAsync();
    });
  bind.singleton(DOOR_TOKENS.DoorRoutes, (ctx) => doorRoutesOf(get(ctx, DOOR_TOKENS.DoorContainer)));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => get(ctx, DOOR_TOKENS.DoorRoutes).self);
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => get(ctx, DOOR_TOKENS.DoorRoutes).origin);
});

/** How often an instance checks that the sessions it streams to were not ended on another instance. */
const RECHECK_MS = 2_000;
const rechecks = new WeakMap<Container, NodeJS.Timeout>();

function doorRoutesOf(door: Container): DoorRoutes {
  const config = get(door, TOKENS.Config);
  const sessions = get(door, DOOR_TOKENS.DoorSessions);
  const timer = setInterval(() => {
    sessions
      .recheck()
      .catch((error: unknown) =>
        get(door, TOKENS.Logger).warn('door sessions recheck failed', { cause: error instanceof Error ? error.message : String(error) }),
      );
  }, RECHECK_MS);
  timer.unref();
  rechecks.set(door, timer);
  const logger = get(door, TOKENS.Logger);
  const brand: DoorBrand = config.oauth?.brand ?? DEFAULT_BRAND;
  const urlsAt = doorUrlsAt(config.baseUrl, config.mount);
  if (!config.remoteAs && !config.oauth?.signIn)
    logger.warn(
      "the MCP door has no oauth.signIn: its consent page never asks the host's principal(req), so nobody can connect an agent until oauth.signIn(req) says who is signed in",
    );
  const transport = new McpDoorTransport({
    door: tracedDoor(get(door, DOOR_TOKENS.DoorTransportUseCases), get(door, TOKENS.Telemetry)),
    sessions,
    urlsOf: urlsAt,
    ...defined({ allowedOrigins: config.door?.allowedOrigins }),
    // Without a base URL the door has no origin of its own to allow: the Host header is the caller's to say.
    ...defined({ ownOrigin: config.baseUrl ? new URL(config.baseUrl).origin : undefined, chromeUrl: config.door?.chromeUrl || undefined }),
    server: {
      appPage: mcpAppPage,
      name: 'porter',
      version: PORTER_VERSION,
      instructions: `Tools of ${brand.name}. Reads run at once; writes, deletions and anything reaching outside wait for the person's approval: when a result says approval is required, ask them to approve it at the address it gives, then call the tool again with the same arguments.`,
    },
    ids: get(door, TOKENS.Ids),
    logger,
    telemetry: get(door, TOKENS.Telemetry),
  });
  const oauth = new DoorOAuthEndpoints({
    oauth: get(door, DOOR_TOKENS.DoorOAuthUseCases),
    urlsAt,
    // Door paths sit outside the host's principal(req): only the door's own sign-in says who consents.
    signedIn: config.oauth?.signIn ? signedInWith(config.oauth.signIn, new HostPrincipals(logger)) : async () => null,
    ...defined({ signInUrl: config.oauth?.signInUrl }),
    brand,
    consentPage: config.oauth?.consentPage ?? defaultConsentPage,
    clock: get(door, TOKENS.Clock),
    logger,
  });
  return doorRoutes({
    mount: config.mount,
    transport,
    oauth,
    urlsAt,
    brand,
    version: PORTER_VERSION,
    remoteIssuer: config.remoteAs?.issuer ?? null,
    fixedOrigin: Boolean(config.baseUrl),
  });
}

/** A tool call through the door in a `porter.door.tool_call` span (the guard's span nests under it). */
function tracedDoor(door: DoorTransportUseCases, telemetry: Telemetry): DoorTransportUseCases {
  return {
    ...door,
    callTool: new TracedUseCase(door.callTool, telemetry, {
      name: 'porter.door.tool_call',
      before: (call) => ({ [ATTR.toolName]: call.tool, [ATTR.subject]: telemetry.subject(call.caller.subject) }),
      after: (result) => ({ [ATTR.outcome]: result.kind }),
    }),
  };
}
