import { useEffect, useRef } from 'react';

/**
 * Happenings one part of the page tells the others about at once, so what they show never waits
 * for a poll: an approval decided or parked anywhere in the page refreshes the Approvals badge and
 * page; a thread renamed or deleted refreshes the list.
 */
type PageEvent = 'approvals-changed' | 'threads-changed';

const NAME = (event: PageEvent) => `porter:${event}`;

function announce(event: PageEvent): void {
  window.dispatchEvent(new Event(NAME(event)));
}

/** An approval was decided, parked or dropped somewhere in this page. */
export function announceApprovalsChanged(): void {
  announce('approvals-changed');
}

/** Calls `react` whenever the event is announced (the latest `react`, without re-subscribing). */
export function usePageEvent(event: PageEvent, react: () => void): void {
  const latest = useRef(react);
  latest.current = react;
  useEffect(() => {
    const listener = () => latest.current();
    window.addEventListener(NAME(event), listener);
    return () => window.removeEventListener(NAME(event), listener);
  }, [event]);
}
