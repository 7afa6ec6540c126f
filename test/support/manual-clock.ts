import type { Clock } from '../../ports/clock.js';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: string | number = '2026-01-01T00:00:00.000Z') {
    this.current = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(at: string | number): void {
    this.current = typeof at === 'number' ? at : Date.parse(at);
  }
}
