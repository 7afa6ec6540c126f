/**
 * Tokens the door mints and how it keeps them: only digests reach the store, and every comparison
 * of a secret is constant-time.
 */
export interface DoorSecrets {
  /** A fresh unguessable token: 256 random bits, base64url. */
  mint(): string;
  /**
   * SHA-256 of the value, base64url without padding. What the store keeps instead of a token, and
   * PKCE's S256 transform of a code verifier (RFC 7636 §4.2).
   */
  digest(value: string): string;
  /** Equality that takes the same time wherever the strings differ. */
  same(a: string, b: string): boolean;
}
