/**
 * The door's one scope: using the host's tools through MCP, as the person who consented. Finer
 * control is the guard's job (risk, grants, approvals), not the token's.
 */
export const DOOR_SCOPE = 'mcp';
export const DOOR_SCOPES: ReadonlyArray<string> = [DOOR_SCOPE];

/** The granted scope for a requested one: omitted means the door scope; anything unknown is refused (null). */
export function grantedScope(requested: string | undefined): string | null {
  if (requested === undefined || requested.trim() === '') return DOOR_SCOPE;
  const asked = requested.split(' ').filter(Boolean);
  return asked.every((scope) => DOOR_SCOPES.includes(scope)) ? [...new Set(asked)].join(' ') : null;
}
