/**
 * `T` with each property that may be `undefined` made optional instead: what {@link defined}
 * returns. `{ a: string; b: number | undefined }` becomes `{ a: string; b?: number }`, which fits a
 * target whose `b?: number` refuses `undefined` under `exactOptionalPropertyTypes`.
 */
export type Defined<T extends object> = Flat<
  { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
    [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
  }
>;

type Flat<T> = { [K in keyof T]: T[K] };

/**
 * The fields without those that are `undefined`: an optional field is left out rather than set to
 * `undefined`, so `{ id, ...defined({ title, until }) }` replaces one `...(x === undefined ? {} : { x })`
 * per field. Only `undefined` is left out: `null`, `''`, `0` and `false` are kept. Literal values keep
 * their literal types (`const T`), so `{ year: long ? 'numeric' : undefined }` still fits `'numeric'`.
 */
export function defined<const T extends object>(fields: T): Defined<T> {
  // A loop, not entries → filter → fromEntries: most requests build a few of these, and the three
  // arrays a call made were most of its cost.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) {
    const value = (fields as Record<string, unknown>)[key];
    if (value === undefined) continue;
    // Defined as its own property, as fromEntries does, so even a `__proto__` key stays a field.
    if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out as Defined<T>;
}
