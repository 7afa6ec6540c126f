import { HostPrincipalUnusable, type Principal } from '../../../domain/principal.js';
import type { PrincipalResolver } from '../../../ports/principal-resolver.js';
import type { WebExchange } from '../../shared/web-handler.js';
import type { HostPrincipals } from './host-principal.js';

/**
 * "Who is signed in" on a page outside the principal floor (the door's consent page): the host's
 * resolver, read and admitted like the wire's `principal(req)` (unknown keys ignored). A principal
 * the wire would refuse is nobody signed in; an answer that is no principal is the host's bug, a
 * logged 500 page.
 */
export function signedInWith(resolve: PrincipalResolver, hostPrincipals: HostPrincipals) {
  return async (exchange: WebExchange): Promise<Principal | null> => {
    const principal = await resolve(exchange.wireRequest());
    if (!principal) return null;
    try {
      return hostPrincipals.admit(principal, 'oauth.signIn(req)');
    } catch (error) {
      if (error instanceof HostPrincipalUnusable) throw error;
      return null;
    }
  };
}
