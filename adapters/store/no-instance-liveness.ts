import type { InstanceLiveness, LiveMarks } from '../../ports/liveness.js';

const NO_MARKS: LiveMarks = { isAlive: () => true, keys: new Set() };

/**
 * The liveness of an engine that keeps no marks (SQLite, memory): this instance never holds one,
 * so nobody's holds are judged by marks and leases alone tell a crash.
 */
export class NoInstanceLiveness implements InstanceLiveness {
  readonly holding = false;

  async hold(): Promise<void> {}

  onLost(): void {}

  async alive(): Promise<LiveMarks> {
    return NO_MARKS;
  }

  async release(): Promise<void> {}
}
