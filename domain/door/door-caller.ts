import type { Principal } from '../principal.js';

/**
 * Who stands behind a bearer token on the door, as far as the token says: the subject, the client,
 * the scope and the consent evidence. `evidence` is null when the token's consent source could not
 * name one (a remote issuer's token without a client): such a caller may list tools but every call
 * fails closed.
 */
export interface DoorBearer {
  readonly subject: string;
  readonly clientId: string | null;
  readonly scope: string;
  readonly evidence: string | null;
  /** Epoch seconds, when known. */
  readonly expiresAt?: number;
}

/** A bearer whose subject the host still resolves to a person, on this request. */
export interface DoorCaller extends DoorBearer {
  readonly principal: Principal;
}
