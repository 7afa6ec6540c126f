import { hmacSha256, sameSignature } from './signature-bytes.js';

/**
 * A verifier keyed by its source's secrets, used as given (GitHub, Stripe). Several are held while
 * one is rotated, and a sender may offer several signatures while it rotates: a delivery signed
 * under any secret, by any signature offered, is genuine.
 */
export abstract class RotatingSecrets {
  private readonly secrets: ReadonlyArray<string>;

  protected constructor(secrets: string | ReadonlyArray<string>, missing: string) {
    this.secrets = typeof secrets === 'string' ? [secrets] : secrets;
    if (this.secrets.length === 0) throw new Error(missing);
  }

  /** Whether one of the `offered` signatures is the HMAC-SHA256 of the parts under one of the secrets. */
  protected signedByOne(offered: ReadonlyArray<Uint8Array>, ...parts: ReadonlyArray<Uint8Array | string>): boolean {
    return this.secrets.some((secret) => {
      const expected = hmacSha256(secret, ...parts);
      return offered.some((signature) => sameSignature(signature, expected));
    });
  }
}
