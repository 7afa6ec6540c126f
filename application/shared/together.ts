import type { Store } from '../../ports/store.js';

/**
 * Runs `work` with the statements it issues at once sent to the store together (Store.together:
 * one round trip and one transaction on PostgreSQL), each caller still getting its own answer.
 */
export type Together = <T>(work: () => Promise<T>) => Promise<T>;

/** Each statement as it comes: a store that cannot group them (memory, a host's own). */
export const asItComes: Together = (work) => work();

/** The store's grouping; undefined when it sends each statement as it comes. */
export function togetherOn(store: Pick<Store, 'together'>): Together | undefined {
  const together = store.together?.bind(store);
  return together ? (work) => together(work) : undefined;
}
