import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../ports/webhook-sender.js';

const VERSION = 'v1';
const INFO = 'porter-runtime sealed secret v1';

/**
 * Seals secrets with AES-256-GCM under keys derived (HKDF-SHA256) from the deployment's secrets:
 * the first seals, every one opens, so rotating PORTER_SECRET (`secret: [new, old]`) keeps what
 * was sealed readable. What a value is bound to is the authenticated data, so a sealed value
 * moved to another record does not open; a changed or unknown key answers null, never garbage.
 * Format: `v1.<iv>.<ciphertext>.<tag>`, base64url.
 */
export class AesGcmSecretBox implements SecretBox {
  private readonly keys: ReadonlyArray<Buffer>;

  constructor(deploymentSecrets: ReadonlyArray<string>) {
    if (deploymentSecrets.length === 0) throw new Error('a secret box needs at least one deployment secret');
    this.keys = deploymentSecrets.map((secret) => Buffer.from(hkdfSync('sha256', secret, 'porter-runtime', INFO, 32)));
  }

  seal(secret: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0]!, iv);
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv, sealed, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string, boundTo: string): string | null {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== VERSION || !iv || body === undefined || !tag) return null;
    for (const key of this.keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
        decipher.setAAD(Buffer.from(boundTo, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        // Not this key (or tampered): try the next one.
      }
    }
    return null;
  }
}
