import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  reload(): void;
}

/**
 * Loads something from the wire and keeps it fresh: again whenever `deps` change, and every
 * `everyMs` while the tab is visible (how the chrome learns of decisions made elsewhere).
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: ReadonlyArray<unknown>, everyMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // A poll never cuts short the load it would repeat: on a slow server each tick would abort the
  // last one, and nothing would ever arrive.
  const inFlight = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    inFlight.current = true;
    const settled = () => {
      if (!controller.signal.aborted) inFlight.current = false;
      return !controller.signal.aborted;
    };
    loadRef.current(controller.signal).then(
      (data) => settled() && setState({ data, error: undefined, loading: false }),
      (error: unknown) => settled() && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    return () => controller.abort();
    // The caller names what the load depends on; `load` itself is read through a ref.
  }, [...deps, tick]);

  useEffect(() => {
    if (!everyMs) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible' && !inFlight.current) setTick((n) => n + 1);
    }, everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}
