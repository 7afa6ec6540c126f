import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { listThreads } from './threads.js';
import { useSession } from './session.js';
import { useLoad } from './use-load.js';
import type { ThreadSummary } from './wire.js';

export interface ThreadListState {
  readonly threads: ReadonlyArray<ThreadSummary> | undefined;
  readonly error: unknown;
  readonly hasMore: boolean;
  loadMore(): void;
}

const ThreadListContext = createContext<ThreadListState | null>(null);

/** The person's threads, newest first; read again when they sign in or out, or a turn ends. */
export function ThreadListProvider({ children }: { children: ReactNode }) {
  const { epoch, threadsEpoch } = useSession();
  const first = useLoad((signal) => listThreads(null, signal), [epoch, threadsEpoch], 15_000);
  const [more, setMore] = useState<{ threads: ThreadSummary[]; cursor: string | null }>({ threads: [], cursor: null });

  useEffect(() => setMore({ threads: [], cursor: null }), [epoch]);

  const loadMore = useCallback(() => {
    const cursor = more.cursor ?? first.data?.nextCursor ?? null;
    if (!cursor) return;
    void listThreads(cursor).then(
      (page) => setMore((current) => ({ threads: [...current.threads, ...page.threads], cursor: page.nextCursor })),
      () => undefined,
    );
  }, [more.cursor, first.data?.nextCursor]);

  const state = useMemo<ThreadListState>(() => {
    if (!first.data) return { threads: undefined, error: first.error, hasMore: false, loadMore };
    const seen = new Set(first.data.threads.map((t) => t.id));
    const threads = [...first.data.threads, ...more.threads.filter((t) => !seen.has(t.id))];
    const hasMore = more.threads.length > 0 ? more.cursor !== null : first.data.nextCursor !== null;
    return { threads, error: first.error, hasMore, loadMore };
  }, [first.data, first.error, more, loadMore]);

  return <ThreadListContext.Provider value={state}>{children}</ThreadListContext.Provider>;
}

export function useThreadList(): ThreadListState {
  const state = useContext(ThreadListContext);
  if (!state) throw new Error('useThreadList outside ThreadListProvider');
  return state;
}
