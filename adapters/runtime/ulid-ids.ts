import { monotonicFactory } from 'ulid';
import { ID_PREFIXES, type IdKind } from '../../domain/ids.js';
import type { Ids } from '../../ports/ids.js';

/** Prefix + ULID: time-ordered, and monotonic within a millisecond so ids sort as minted. */
export class UlidIds implements Ids {
  private readonly next = monotonicFactory();

  mint(kind: IdKind): string {
    return `${ID_PREFIXES[kind]}${this.next()}`;
  }
}
