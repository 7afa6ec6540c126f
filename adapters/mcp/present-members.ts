/**
 * The members that have a value. OAuth parameters and metadata are optional one by one: an absent
 * one stays absent (no key at all) in what the use case is given and in what the door answers,
 * rather than present as undefined.
 */
export function presentMembers<T extends Record<string, unknown>>(members: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
