/**
 * What a suite opens (stores, Porter instances), closed last-opened first after each test (`each`)
 * or after the suite. Call it in a `describe`, before hooks that must run after the closing; push
 * what the tests open onto the list it gives.
 */
export function closedAfter<T extends { close(): Promise<unknown> }>(options: { each?: boolean } = {}): T[] {
  const opened: T[] = [];
  (options.each ? afterEach : after)(async () => {
    while (opened.length) await opened.pop()!.close();
  });
  return opened;
}
