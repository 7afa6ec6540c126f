import { DoorClient } from './door-client.js';
import { OAuthRefusal } from './oauth-refusal.js';
import { redirectUriProblem } from './redirect-uri.js';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11-25
 * SEP-991): a client names itself with an HTTPS URL, and the JSON document at that URL is its
 * registration. Nothing is stored: the door reads the document whenever it needs the client.
 */

/** Longest client_id URL the door reads (its authorize query bounds client_id to this). */
export const MAX_CLIENT_ID_URL_LENGTH = 2000;

/** A client_id that names a document rather than a registered `mcpc_` client: any `scheme://`. */
export function isClientIdUrl(clientId: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(clientId);
}

/**
 * Why a client_id URL cannot name a metadata document, or null when it can: `https`, with a path
 * other than `/`, no fragment, no credentials, no `.` or `..` segments (the draft's §3). The URL is
 * read as it is written: the door never normalises it, and the document must name it byte for byte.
 */
export function clientIdUrlProblem(clientId: string): string | null {
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH) return `is longer than ${MAX_CLIENT_ID_URL_LENGTH} characters`;
  // The parser would quietly rewrite these (a backslash is a slash to it), so what is fetched would differ from the id.
  if ([...clientId].some((char) => char === '\\' || char <= ' ' || char === '\u007f'))
    return 'must not contain backslashes, spaces or control characters';
  if (!URL.canParse(clientId)) return 'is not a URL';
  const url = new URL(clientId);
  if (url.protocol !== 'https:' || !clientId.startsWith('https://')) return 'must use https';
  if (clientId.includes('#')) return 'must not contain a fragment';
  if (url.username !== '' || url.password !== '' || /^https:\/\/[^/]*@/.test(clientId)) return 'must not carry credentials';
  const path = clientId
    .slice('https://'.length)
    .replace(/^[^/?]*/, '')
    .replace(/\?.*$/, '');
  if (path === '' || path === '/') return 'must have a path';
  if (path.split('/').some((segment) => segment === '.' || segment === '..' || /^(?:%2e|\.){1,2}$/i.test(segment)))
    return 'must not contain . or .. path segments';
  return null;
}

/**
 * The client a fetched document describes, or an `invalid_client` refusal saying what is wrong
 * with it. The door authenticates these clients as public ones bound by PKCE: a document that
 * asks for a shared secret, or for `private_key_jwt` (which the door does not verify), is refused
 * rather than quietly downgraded.
 */
export function clientFromDocument(clientId: string, document: unknown, readAt: string): DoorClient {
  const refuse = (problem: string) => new OAuthRefusal('invalid_client', `The client metadata document at ${clientId} ${problem}`, 401);
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw refuse('is not a JSON object');
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== clientId) throw refuse('must name its own URL as client_id');
  if (fields.client_secret !== undefined || fields.client_secret_expires_at !== undefined)
    throw refuse('must not contain a client_secret (these clients have none)');
  const method = fields.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw refuse(`asks for token_endpoint_auth_method ${JSON.stringify(method)}; this door takes only "none" (a public client with PKCE)`);
  const uris = fields.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri): uri is string => typeof uri === 'string'))
    throw refuse('must list its redirect_uris');
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw refuse(`lists redirect_uri ${JSON.stringify(uri)}, which ${problem}`);
  }
  const text = (name: string, max: number): string | null => {
    const value = fields[name];
    return typeof value === 'string' && value.trim() !== '' && value.length <= max ? value : null;
  };
  return DoorClient.register({
    id: clientId,
    name: text('client_name', 200) ?? new URL(clientId).host,
    redirectUris: uris,
    authMethod: 'none',
    secretHash: null,
    clientUri: text('client_uri', 2000),
    logoUri: text('logo_uri', 2000),
    softwareId: text('software_id', 200),
    softwareVersion: text('software_version', 200),
    registeredAt: readAt,
  });
}
