import { hash } from 'node:crypto';
import { canonicalJson } from '../../domain/guard/tool-call.js';

/** SHA-256 of the canonical JSON of an input: equal inputs, whatever their key order, digest equally. */
export function inputDigest(input: unknown): string {
  return hash('sha256', canonicalJson(input), 'base64url');
}
