import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import type { ActAsPreset } from '../../ports/act-as.js';

/** A secret, or a function that reads the current one (so rotation needs no restart). */
export type SecretSource = string | (() => string);

export function currentSecret(source: SecretSource): string {
  const secret = typeof source === 'function' ? source() : source;
  if (!secret || secret.length < 32) throw new Error('act-as secrets must be at least 32 characters');
  return secret;
}

/** Identifies a secret without revealing it: a truncated SHA-256. */
export function fingerprintOf(source: SecretSource): string {
  return createHash('sha256').update(currentSecret(source)).digest('hex').slice(0, 16);
}

/**
 * The preset, its `fingerprint` read from `source` at each look: a cache keyed by it drops
 * everything the moment the secret rotates, with no restart.
 */
export function keyedBy(source: SecretSource, preset: Omit<ActAsPreset, 'fingerprint'>): ActAsPreset {
  return {
    ...preset,
    get fingerprint() {
      return fingerprintOf(source);
    },
  };
}

/** A short-lived HS256 JWT about `subject`, signed with the current secret, and when it expires (epoch ms). */
export async function signedHs256(
  source: SecretSource,
  token: { subject: string; claims?: Record<string, unknown>; issuer?: string; audience?: string; ttlSeconds: number },
): Promise<{ token: string; expiresAt: number }> {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({ ...token.claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(token.subject)
    .setIssuedAt(now)
    .setExpirationTime(now + token.ttlSeconds);
  if (token.issuer) jwt = jwt.setIssuer(token.issuer);
  if (token.audience) jwt = jwt.setAudience(token.audience);
  return { token: await jwt.sign(new TextEncoder().encode(currentSecret(source))), expiresAt: (now + token.ttlSeconds) * 1000 };
}
