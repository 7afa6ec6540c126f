import type { Principal } from '../domain/principal.js';

/**
 * The host's `oauth.principal(subject)`: who a connected subject is now, or null when the host no
 * longer knows them (deleted, banned). Called on every bearer-authenticated door request.
 */
export type DoorPrincipalLookup = (subject: string) => Principal | null | Promise<Principal | null>;
