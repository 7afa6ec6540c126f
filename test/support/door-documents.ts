/**
 * The six discovery documents the spec serves at the origin root (for a door mounted at
 * `/api/porter/mcp`), in the order the door's origin route lists them.
 */
export const ORIGIN_ROOT_DOCUMENTS: readonly string[] = [
  '/.well-known/oauth-protected-resource/api/porter/mcp',
  '/.well-known/oauth-authorization-server/api/porter/mcp',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server',
  '/.well-known/mcp/server-card.json',
  '/.well-known/mcp-server-card',
];
