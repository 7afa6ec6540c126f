import { createHash } from 'node:crypto';

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
