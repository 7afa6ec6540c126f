import { admitHostPrincipal, readHostPrincipal, type Principal } from '../../../domain/principal.js';
import type { DoorPrincipalLookup } from '../../../ports/door-principals.js';
import type { Logger } from '../../../ports/logger.js';

/** Past this many distinct ignored keys, no more are remembered (nor warned about). */
const REMEMBERED_KEYS = 100;

/**
 * Reads what a host's resolver returned (readHostPrincipal) and admits it by the wire's rules
 * (admitHostPrincipal). Keys Porter does not use are ignored, and each is named once in the log
 * (per source), so a host returning its own user object hears about it without one warning per
 * request. Throws HostPrincipalUnusable for what is no principal (a logged 500), and the wire's
 * refusals (403 reserved or org, 400 unacceptable text) as they are.
 */
export class HostPrincipals {
  private readonly warned = new Set<string>();

  constructor(private readonly logger: Logger) {}

  read(returned: unknown, source: string): Principal {
    const { principal, ignored } = readHostPrincipal(returned, source);
    if (ignored.length > 0) this.warnOnce(source, ignored);
    return principal;
  }

  admit(returned: unknown, source: string): Principal {
    return admitHostPrincipal(this.read(returned, source));
  }

  private warnOnce(source: string, ignored: ReadonlyArray<string>): void {
    const fresh = ignored.filter((key) => !this.warned.has(`${source}\u0000${key}`));
    if (fresh.length === 0 || this.warned.size >= REMEMBERED_KEYS) return;
    for (const key of fresh) this.warned.add(`${source}\u0000${key}`);
    this.logger.warn(
      `the host's ${source} returned fields Porter does not use; they are ignored (Porter keeps subject, kind, name, email)`,
      {
        fields: fresh.slice(0, 20),
      },
    );
  }
}

/**
 * The host's `oauth.principal(subject)` as the door asks it: its answer read once here (unknown
 * keys dropped and named once in the log; one that is no principal throws HostPrincipalUnusable),
 * so the admission that follows only applies the wire's rules to it.
 */
export function hostPrincipalLookup(resolve: (subject: string) => unknown, hostPrincipals: HostPrincipals): DoorPrincipalLookup {
  return async (subject) => {
    const answer = await resolve(subject);
    return answer ? hostPrincipals.read(answer, 'oauth.principal(subject)') : null;
  };
}
