import type { Middleware } from 'koa';
import { anonymousPrincipal, type Principal } from '../../../domain/principal.js';
import type { Ids } from '../../../ports/ids.js';
import type { Logger } from '../../../ports/logger.js';
import type { PrincipalResolver } from '../../../ports/principal-resolver.js';
import type { IdentityUseCases } from '../../../ports/use-cases/identity.js';
import type { WireState } from '../wire-state.js';
import { wireRequestOf } from '../wire-request.js';
import { clientNetworkOf } from '../client-network.js';
import { issueAnonymousSession, readAnonymousSession, retireAnonymousSession } from './anonymous-cookie.js';
import { HostPrincipals } from './host-principal.js';

export interface PrincipalFloorOptions {
  readonly resolve: PrincipalResolver;
  readonly identity: IdentityUseCases;
  readonly ids: Ids;
  readonly logger: Logger;
}

/**
 * Resolves who is calling: the host's principal (reserved namespace and kind `org` rejected), or
 * else the anonymous cookie session, minted on first sight, with the network it calls from (the
 * socket's address, or the one `trustProxy` says a proxy in front saw), whose anonymous sessions
 * share budgets. A signed-in request that still
 * carries an anonymous cookie adopts that session and retires the cookie; when adoption fails the
 * cookie stays and the next request tries again.
 */
export function principalFloor(options: PrincipalFloorOptions): Middleware<WireState> {
  const hostPrincipals = new HostPrincipals(options.logger);
  return async (ctx, next) => {
    const returned = await options.resolve(wireRequestOf(ctx));
    const anonymousSession = readAnonymousSession(ctx);
    if (returned) {
      // The host's own user object is fine (unknown keys are ignored); no subject is the host's bug, a logged 500.
      const principal = hostPrincipals.admit(returned, 'principal(req)');
      ctx.state.principal = principal;
      if (anonymousSession) await adopt(ctx, anonymousSession, principal, options);
    } else {
      const sessionId = anonymousSession ?? options.ids.mint('anonymous');
      if (!anonymousSession) issueAnonymousSession(ctx, sessionId);
      ctx.state.principal = anonymousPrincipal(sessionId, clientNetworkOf(ctx.ip));
    }
    await next();
  };
}

async function adopt(ctx: Parameters<Middleware>[0], sessionId: string, to: Principal, options: PrincipalFloorOptions): Promise<void> {
  try {
    await options.identity.adoptAnonymousSession.execute({ from: anonymousPrincipal(sessionId).subject, to });
    retireAnonymousSession(ctx);
  } catch (error) {
    options.logger.warn('adopting an anonymous session failed; it will be retried on the next request', {
      cause: error instanceof Error ? error.message : String(error),
    });
  }
}
