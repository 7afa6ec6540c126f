import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of the parts, concatenated, under `key`. */
export function hmacSha256(key: Uint8Array | string, ...parts: ReadonlyArray<Uint8Array | string>): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/**
 * Constant-time equality of a received signature with the expected one. Lengths are compared
 * first: a digest's length is public, only its bytes are secret.
 */
export function sameSignature(received: Uint8Array, expected: Uint8Array): boolean {
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/** A header's single value, lower-case names as Node gives them. */
export function headerOf(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = headers[name];
  return value === undefined || value === '' ? undefined : value;
}
