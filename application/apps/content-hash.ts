import { createHash } from 'node:crypto';
import { canonicalJson } from '../../domain/guard/tool-call.js';
import type { AppDocument } from '../../domain/apps/app-document.js';

/** SHA-256 of the document's canonical JSON: what an approval was granted against. */
export function contentHashOf(document: AppDocument): string {
  return createHash('sha256').update(canonicalJson(document)).digest('hex');
}
