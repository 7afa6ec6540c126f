import { CLIENT_AUTH_METHODS, type ClientAuthMethod } from './door-client.js';

/** The grants the door serves; the only response type it answers with. */
export const DOOR_GRANT_TYPES: ReadonlyArray<string> = ['authorization_code', 'refresh_token'];
export const DOOR_RESPONSE_TYPES: ReadonlyArray<string> = ['code'];

/**
 * What the door keeps of a client's requested grant types (RFC 7591 §2: a server may replace
 * metadata it does not support). Grants it does not serve (`client_credentials`, `implicit`,
 * `urn:ietf:params:oauth:grant-type:device_code`, `password`…) are dropped; a client that asked
 * for no grant the door serves is given both, since the code grant is the only way in.
 */
export function keptGrantTypes(requested: ReadonlyArray<string> | undefined): ReadonlyArray<string> {
  const kept = DOOR_GRANT_TYPES.filter((grant) => requested?.includes(grant));
  return kept.includes('authorization_code') && requested !== undefined ? kept : DOOR_GRANT_TYPES;
}

/** Response types other than `code` (`token`, `id_token`…) are dropped: the door answers with codes only. */
export function keptResponseTypes(): ReadonlyArray<string> {
  return DOOR_RESPONSE_TYPES;
}

/**
 * The token endpoint authentication the client gets: the one it asked for when the door knows it;
 * `none` (a public client, bound by PKCE) when it asked for none or for one the door does not do
 * (`private_key_jwt`, `tls_client_auth`…).
 */
export function keptAuthMethod(requested: string | undefined): ClientAuthMethod {
  return CLIENT_AUTH_METHODS.find((method) => method === requested) ?? 'none';
}
