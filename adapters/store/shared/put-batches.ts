/**
 * What one put of an index writes, statement by statement: the last entry of each id (one statement
 * may not touch a row twice; the last wins, as separate puts would), in batches of at most `size`.
 */
export function putBatches<T extends { readonly id: string }>(entries: ReadonlyArray<T>, size: number): T[][] {
  const latest = [...new Map(entries.map((entry) => [entry.id, entry])).values()];
  const batches: T[][] = [];
  for (let start = 0; start < latest.length; start += size) batches.push(latest.slice(start, start + size));
  return batches;
}
