/**
 * Runs one operation at a time, in call order. A session's start, restore, snapshot and close
 * touch the same process and files; overlapping them would leave two servers or a torn copy.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.tail.then(operation, operation);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
