/**
 * The door's one scope: using the host's tools through MCP, as the person who consented. Finer
 * control is the guard's job (risk, grants, approvals), not the token's.
 */
export const DOOR_SCOPE = 'mcp';
export const DOOR_SCOPES: ReadonlyArray<string> = [DOOR_SCOPE];

/** What the door grants for a requested scope, and which of the asked scopes it dropped. */
export interface ScopeGrant {
  readonly scope: string;
  readonly dropped: ReadonlyArray<string>;
}

/**
 * Negotiation, never refusal: whatever a client asks for (`mcp offline_access`, `claudeai`,
 * `openid profile`, nothing at all), the door grants its one scope. RFC 6749 §3.3 lets a server
 * grant less than asked (the token response then names what it granted, as the door's always
 * does), and RFC 7591 §2 lets it replace requested metadata. Refresh tokens come with every grant,
 * so `offline_access` costs nothing to drop.
 */
export function grantedScope(requested: string | undefined): ScopeGrant {
  const asked = new Set((requested ?? '').split(' ').filter(Boolean));
  return { scope: DOOR_SCOPE, dropped: [...asked].filter((scope) => !DOOR_SCOPES.includes(scope)) };
}
