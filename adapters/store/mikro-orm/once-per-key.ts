/**
 * `make(key)` run once per key however many callers race for it; a failure is forgotten, so the
 * next caller tries again (a table made the first time a vector length is stored).
 */
export function oncePerKey<K>(make: (key: K) => Promise<void>): (key: K) => Promise<void> {
  const made = new Map<K, Promise<void>>();
  return (key) => {
    let making = made.get(key);
    if (!making) {
      making = make(key);
      made.set(key, making);
      making.catch(() => made.delete(key));
    }
    return making;
  };
}
