import { InvalidInput } from '../../domain/errors.js';

/**
 * Every public URL of the door, from the origin it is reached at and the wire's mount.
 * - protected resource: `{origin}{wire}/mcp` (the transport), with the authorization server's
 *   endpoints under it;
 * - issuer: the origin itself, so the authorization server metadata at the origin root
 *   (`/.well-known/oauth-authorization-server`, which RFC 8414 reserves for the issuer that is the
 *   origin, and which MCP clients of the 2025-03-26 revision read) describes the issuer it is
 *   fetched for, and strict clients (RFC 8414 §3.3, RFC 9207 `iss`) accept it;
 * - RFC 9728 / RFC 8414 metadata by path insertion: `/.well-known/oauth-protected-resource{wire}/mcp`
 *   and `/.well-known/oauth-authorization-server{wire}/mcp` at the origin root, plus the root forms;
 * - the base-path-prefixed forms: `{wire}/mcp/.well-known/oauth-protected-resource` and
 *   `{wire}/mcp/.well-known/oauth-authorization-server` (the well-known suffix appended to the
 *   door's own path, reachable wherever the host forwards the wire).
 */
export interface DoorUrls {
  /** The origin the door is reached at (`https://app.example.com`): its authorization server's issuer. */
  readonly origin: string;
  readonly issuer: string;
  readonly resource: string;
  readonly authorize: string;
  readonly token: string;
  readonly register: string;
  readonly revoke: string;
  readonly connect: string;
  readonly protectedResourceMetadata: string;
  readonly authorizationServerMetadata: string;
}

export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';
export const AUTHORIZATION_SERVER_WELL_KNOWN = '/.well-known/oauth-authorization-server';
export const SERVER_CARD_PATHS = ['/.well-known/mcp/server-card.json', '/.well-known/mcp-server-card'] as const;

/** The door's path under the wire's mount (`/api/porter` → `/api/porter/mcp`). */
export function doorPath(mount: string): string {
  return `${mount === '/' ? '' : mount}/mcp`;
}

export function doorUrls(origin: string, mount: string): DoorUrls {
  const path = doorPath(mount);
  const door = `${origin}${path}`;
  return {
    origin,
    issuer: origin,
    resource: door,
    authorize: `${door}/authorize`,
    token: `${door}/token`,
    register: `${door}/register`,
    revoke: `${door}/revoke`,
    connect: `${door}/connect`,
    protectedResourceMetadata: `${origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}`,
    authorizationServerMetadata: `${origin}${AUTHORIZATION_SERVER_WELL_KNOWN}${path}`,
  };
}

/** How many request origins' URLs are kept: a host answers under a handful of names. */
const REMEMBERED_ORIGINS = 16;

/**
 * The door's URLs for a request from `origin` (`{protocol}://{host}` as the host read them): from
 * PORTER_BASE_URL's origin when set (behind a proxy, Host may be internal), else the request's,
 * which must be a valid origin (`InvalidInput` if not). Every request of the transport asks: the
 * answer for an origin is kept, for a few origins (a forged Host only evicts the others).
 */
export function doorUrlsAt(baseUrl: string | undefined, mount: string): (origin: string) => DoorUrls {
  if (baseUrl) {
    const fixed = doorUrls(new URL(baseUrl).origin, mount);
    return () => fixed;
  }
  const remembered = new Map<string, DoorUrls>();
  return (address) => {
    let urls = remembered.get(address);
    if (!urls) {
      urls = doorUrls(originOf(address), mount);
      if (remembered.size >= REMEMBERED_ORIGINS) remembered.clear();
      remembered.set(address, urls);
    }
    return urls;
  };
}

/** The origin of `{protocol}://{host}` as the request gave them (`X-Forwarded-*` only when `trustProxy` is on). */
function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    throw new InvalidInput('The Host header is not a valid host');
  }
}

/** The six exact origin-root documents (the contract's list), for a wire at `mount`. */
export function originDocumentPaths(mount: string): ReadonlyArray<string> {
  const path = doorPath(mount);
  return [
    `${PROTECTED_RESOURCE_WELL_KNOWN}${path}`,
    `${AUTHORIZATION_SERVER_WELL_KNOWN}${path}`,
    PROTECTED_RESOURCE_WELL_KNOWN,
    AUTHORIZATION_SERVER_WELL_KNOWN,
    ...SERVER_CARD_PATHS,
  ];
}
