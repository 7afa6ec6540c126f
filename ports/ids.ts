import type { IdKind } from '../domain/ids.js';

/** Mints server-side identifiers: the kind's prefix plus a time-ordered random part. */
export interface Ids {
  mint(kind: IdKind): string;
}
