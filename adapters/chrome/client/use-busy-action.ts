import { useState } from 'react';
import type { Notice } from './page.js';
import { describeError } from './wire.js';

/**
 * A page's actions, one at a time: which is under way (`busy`, so its button says so and the
 * others wait) and what the last came to (`notice`: a failure in words, or what the action said).
 * `settled` runs after each, succeeded or not (a list read again).
 */
export function useBusyAction<K extends string>(settled?: () => void) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<K | null>(null);
  const act = async (what: K, work: () => Promise<void>) => {
    setBusy(what);
    setNotice(null);
    try {
      await work();
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
    } finally {
      setBusy(null);
      settled?.();
    }
  };
  return { notice, setNotice, busy, act };
}
