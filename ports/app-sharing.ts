import type { Principal } from '../domain/principal.js';

/**
 * The host's rule for who may make an app readable by others (the `canShareApps` option). Asked
 * only when an app made from a supplied document asks for `scope: "shared"`, and never for an
 * anonymous session. Without a rule nobody may.
 */
export type CanShareApps = (principal: Principal) => boolean | Promise<boolean>;
