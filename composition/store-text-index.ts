import { ScanningTextIndex } from '../adapters/store/shared/scanning-text-index.js';
import type { Store } from '../ports/store.js';
import type { TextIndex } from '../ports/text-index.js';

/**
 * A collection of the text index: the store's own (FTS5, tsvector, memory), or, on a host's Store
 * that has none, passages kept as records of that Store and scanned on search.
 */
export function storeTextIndex(store: Store, collection: string): TextIndex {
  return store.textIndex ? store.textIndex(collection) : new ScanningTextIndex(store.records(`porter-text:${collection}`));
}
