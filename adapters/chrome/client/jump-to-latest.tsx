import { useEffect, useState, type RefObject } from 'react';
import { Icon } from './icon.js';

/** How far from the bottom still counts as reading the latest (as the chat's own pinning does). */
const NEAR_BOTTOM_PX = 80;

/**
 * "Jump to latest": shown while the conversation is scrolled up away from its end (by scrolling,
 * or by new words arriving below), gone at the bottom. It scrolls to the end; `onJump` lets the
 * chat follow new words again and takes the focus somewhere that stays (the button goes away).
 */
export function JumpToLatest({ scroller, onJump }: { scroller: RefObject<HTMLElement | null>; onJump(): void }) {
  const [away, setAway] = useState(false);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const look = () => setAway(element.scrollHeight - element.scrollTop - element.clientHeight >= NEAR_BOTTOM_PX);
    look();
    element.addEventListener('scroll', look, { passive: true });
    // New words grow the column without a scroll event; the viewport's size changes it too.
    const resized = new ResizeObserver(look);
    resized.observe(element);
    for (const child of Array.from(element.children)) resized.observe(child);
    return () => {
      element.removeEventListener('scroll', look);
      resized.disconnect();
    };
  }, [scroller]);
  if (!away) return null;
  return (
    <div className="jump-latest-dock">
      <button
        type="button"
        className="button small secondary jump-latest"
        onClick={() => {
          const element = scroller.current;
          if (element) element.scrollTop = element.scrollHeight;
          setAway(false);
          onJump();
        }}
      >
        <Icon d="M12 5v14M5 12l7 7 7-7" />
        Jump to latest
      </button>
    </div>
  );
}
