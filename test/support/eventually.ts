/**
 * Waiting on work that runs in the background and announces nothing a test can await (a
 * restore, an executor, a poll-driven scheduler): check again until it holds or a deadline
 * passes. Prefer awaiting the event itself (a promise, a gate, a stream part) when there is one;
 * never sleep a fixed time and hope.
 */
const EVERY_MS = 10;
/**
 * How long a wait may take before it fails. Generous on purpose: it is a cap for a busy machine
 * (another full suite beside this one), never a pace; a wait that holds returns at once. It stays
 * under mocha's 30 s per test so the failure names what it waited for.
 */
export const WAIT_CAP_MS = 20_000;

/** True once `check` holds, false if it still does not after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = WAIT_CAP_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
  return check();
}

/** `read()`'s answer once `done` holds it; throws with `what` and the last answer after `timeoutMs`. */
export async function until<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? WAIT_CAP_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${options.what ?? 'a condition'}; last answer: ${JSON.stringify(value)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
}
