/**
 * PKCE as the door requires it: S256 only (RFC 7636 §4.2). A challenge is the base64url SHA-256 of
 * the verifier without padding, so it is exactly 43 characters.
 */
export const PKCE_METHOD = 'S256';

/** The description every PKCE refusal carries, word for word. */
export const PKCE_REQUIRED = 'PKCE with code_challenge_method=S256 is required';

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function isS256Challenge(value: unknown): value is string {
  return typeof value === 'string' && CHALLENGE.test(value);
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export function isCodeVerifier(value: unknown): value is string {
  return typeof value === 'string' && VERIFIER.test(value);
}
