/**
 * The client's redirect URI with the authorization response added to its query, keeping whatever
 * query it registered (RFC 6749 §3.1.2). `iss` names the issuer (RFC 9207) so a client talking to
 * several servers cannot be fed a code from the wrong one.
 */
export function redirectBack(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
