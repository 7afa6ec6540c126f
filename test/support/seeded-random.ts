/**
 * A small seeded random source (mulberry32): a property run that fails prints its seed, and the
 * same seed replays the same requests.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: ReadonlyArray<T>): T {
    if (items.length === 0) throw new Error('nothing to pick from');
    return items[this.int(0, items.length - 1)]!;
  }

  /** A length for a run of `min` to `max` (max may be Infinity): small ones are likelier, and the bounds. */
  count(min: number, max: number): number {
    const high = Math.min(max, min + 12);
    const roll = this.next();
    if (roll < 0.1) return min;
    if (roll < 0.15 && Number.isFinite(max) && max - min <= 300) return max;
    return this.int(min, high);
  }
}
