import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { ID_PREFIXES, type IdKind } from '../../domain/ids.js';
import type { Ids } from '../../ports/ids.js';

/** Prefix + ULID: time-ordered, and monotonic within a millisecond so ids sort as minted. */
export class UlidIds implements Ids {
  private readonly next = monotonicFactory(pooledRandom());

  mint(kind: IdKind): string {
    return `${ID_PREFIXES[kind]}${this.next()}`;
  }
}

/**
 * ulid's default source asks the OS for one random byte per character (16 calls an id, tens of
 * microseconds); this draws the same uniform bytes from a pool refilled 4 KiB at a time. Same
 * contract as ulid's own: a float in [0, 1) from one random byte.
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(4096);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}
