import type { Principal } from '../domain/principal.js';
import type { WireRequest } from './wire-request.js';

/**
 * The host's `principal(req)`: who is signed in, or null before sign-in (an anonymous cookie
 * session then stands in). Porter reads `subject`, `kind`, `name` and `email` from what it returns
 * (readHostPrincipal; other keys are ignored) and rejects reserved subjects and kind `org`.
 */
export type PrincipalResolver = (request: WireRequest) => Principal | null | Promise<Principal | null>;
