import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DoorSecrets } from '../../ports/door-secrets.js';

/** Door secrets from Node's crypto: 256-bit random tokens, SHA-256 digests, timing-safe equality. */
export class NodeDoorSecrets implements DoorSecrets {
  mint(): string {
    return randomBytes(32).toString('base64url');
  }

  digest(value: string): string {
    // One-shot: every door request digests its bearer, and a Hash object per call costs more than the digest.
    return hash('sha256', value, 'base64url');
  }

  same(a: string, b: string): boolean {
    // Compare fixed-length digests, so neither the content nor the length of a secret leaks in time.
    const left = createHash('sha256').update(a, 'utf8').digest();
    const right = createHash('sha256').update(b, 'utf8').digest();
    return timingSafeEqual(left, right);
  }
}
