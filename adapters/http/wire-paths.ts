/**
 * Where each wire path sits relative to the floor. Paths here are relative to the mount.
 * These lists are the whole of the floor's exceptions; keep them exact.
 */

/**
 * The four state-changing surfaces exempt from the CSRF floor; none carries ambient credentials.
 * Webhooks and the tick authenticate themselves and never read a cookie. The import resolves the
 * person like any route, so it is `ambient`: its bytes must be `application/vnd.porter.app`, a
 * type no form can send and that forces a CORS preflight, and the floor also refuses a
 * cookie-carrying import the browser marks as started by another site. A file upload is the same:
 * `ambient`, its body the file, any type but the form types (which its route refuses).
 */
const CSRF_EXEMPT: ReadonlyArray<{ method: string; pattern: RegExp; ambient?: true }> = [
  { method: 'POST', pattern: /^\/webhooks\/[^/]+$/ },
  { method: 'POST', pattern: /^\/tick$/ },
  { method: 'POST', pattern: /^\/apps\/import$/, ambient: true },
  { method: 'POST', pattern: /^\/threads\/[^/]+\/files$/, ambient: true },
];

/** The MCP door (transport, OAuth endpoints, setup page) sits outside the floor entirely. */
const DOOR = /^\/mcp(\/.*)?$/;

export function isDoorPath(relativePath: string): boolean {
  return DOOR.test(relativePath);
}

export function isCsrfExempt(method: string, relativePath: string): boolean {
  return isDoorPath(relativePath) || CSRF_EXEMPT.some((e) => e.method === method && e.pattern.test(relativePath));
}

const ORGANIZATIONS = /^\/orgs(\/.*)?$/;

/** True for `/orgs[/*]`: organizations, a Porter Cloud capability, refused whatever the method. */
export function isOrganizationPath(relativePath: string): boolean {
  return ORGANIZATIONS.test(relativePath);
}

const ORG_SCOPED = /^\/(approvals|grants)(\/.*)?$/;

/** True for `/approvals[/*]` and `/grants[/*]`, where an `org` query or body field is refused. */
export function isOrgScoped(relativePath: string): boolean {
  return ORG_SCOPED.test(relativePath);
}

/** An exemption whose route resolves the person from the request's cookies (the app import). */
export function isAmbientCsrfExemption(method: string, relativePath: string): boolean {
  return CSRF_EXEMPT.some((e) => e.ambient && e.method === method && e.pattern.test(relativePath));
}

/** Paths whose bodies their own handlers read as bytes (signatures, archives, the door). */
export function readsOwnBody(relativePath: string): boolean {
  return (
    isDoorPath(relativePath) ||
    /^\/webhooks\/[^/]+$/.test(relativePath) ||
    relativePath === '/tick' ||
    relativePath === '/apps/import' ||
    /^\/threads\/[^/]+\/files$/.test(relativePath)
  );
}

/** The path relative to the mount, or null when the request is not under it. */
export function relativeToMount(mount: string, path: string): string | null {
  if (mount === '' || mount === '/') return path;
  if (path === mount) return '/';
  return path.startsWith(`${mount}/`) ? path.slice(mount.length) : null;
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
