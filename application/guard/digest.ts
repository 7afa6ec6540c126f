import { createHash } from 'node:crypto';
import { canonicalJson } from '../../domain/guard/tool-call.js';

/** SHA-256 of the canonical JSON of an input: equal inputs, whatever their key order, digest equally. */
export function inputDigest(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('base64url');
}
