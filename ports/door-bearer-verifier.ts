import type { DoorBearer } from '../domain/door/door-caller.js';

/**
 * Checks a bearer token presented to the door's transport: the door's own access tokens (local
 * authorization server) or an external issuer's JWTs (`remoteAs`). Null for anything it does not
 * accept: unknown, expired, revoked, badly signed, or meant for another audience.
 */
export interface DoorBearerVerifier {
  verify(token: string, resource: string): Promise<DoorBearer | null>;
}
