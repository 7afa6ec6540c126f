import { InvalidInput } from '../../../domain/errors.js';
import type { RecordInput } from '../../../ports/store.js';

/**
 * Text a store keeps exactly, on every engine: PostgreSQL refuses a NUL character in text and in
 * jsonb ("invalid byte sequence"), and turns a lone UTF-16 surrogate into U+FFFD (another id than
 * the one asked for). Keys (ids, refs, blob keys) holding either are refused on write and name
 * nothing on read, so such a string never reaches the database as a 500.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** True when every name and value of `refs` is storable. */
export function areStorableRefs(refs: Readonly<Record<string, string>> | undefined): boolean {
  return Object.entries(refs ?? {}).every(([name, value]) => isStorableText(name) && isStorableText(value));
}

export class UnstorableText extends InvalidInput {
  constructor(what: string) {
    super(`The ${what} cannot be stored: it holds a NUL character or a broken UTF-16 sequence`);
  }
}

/** Refuses a write whose id or refs cannot be stored. */
export function assertStorableRecord(input: Pick<RecordInput<unknown>, 'id' | 'refs'>): void {
  if (!isStorableText(input.id)) throw new UnstorableText('record id');
  if (!areStorableRefs(input.refs)) throw new UnstorableText("record's labels");
}
