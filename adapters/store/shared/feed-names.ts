import { MAX_FEED_KEY_LENGTH } from '../../../ports/feeds.js';

/** A feed namespace: 1 to 64 letters, digits, `_`, `.` or `-` (a PostgreSQL notification names it before a space). */
export function checkNamespace(namespace: string): void {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(namespace))
    throw new RangeError(`"${namespace}" is not a feed namespace (1 to 64 of A-Z, a-z, 0-9, _ . -)`);
}

/** Whether `key` can name a feed: 1 to MAX_FEED_KEY_LENGTH characters, without NUL. */
export function validKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_FEED_KEY_LENGTH && !key.includes('\u0000');
}

export function checkKey(key: string): void {
  if (!validKey(key)) throw new RangeError(`a feed key is 1 to ${MAX_FEED_KEY_LENGTH} characters, without NUL`);
}
