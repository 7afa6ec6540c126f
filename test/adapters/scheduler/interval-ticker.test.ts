import { expect } from 'chai';
import { IntervalTicker } from '../../../adapters/scheduler/interval-ticker.js';
import { FeedWakeUps, SCHEDULE_WAKE_UPS_FEED } from '../../../adapters/scheduler/feed-wake-ups.js';
import { ConsoleLogger } from '../../../adapters/runtime/console-logger.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';

/** A tick whose answers the test gives, one call at a time. */
function scriptedTicks() {
  const calls: Array<(nextSlotAt: Date | null) => void> = [];
  let called: (() => void) | null = null;
  return {
    work: {
      tick: () =>
        new Promise<{ runIds: string[]; nextSlotAt: Date | null }>((resolve) => {
          calls.push((nextSlotAt) => resolve({ runIds: [], nextSlotAt }));
          called?.();
        }),
    },
    get count() {
      return calls.length;
    },
    /** Resolves when the ticker has ticked `n` times in all. */
    ticked(n: number): Promise<void> {
      if (calls.length >= n) return Promise.resolve();
      return new Promise((resolve) => {
        called = () => {
          if (calls.length >= n) resolve();
        };
      });
    },
    answer(index: number, nextSlotAt: Date | null = null): void {
      calls[index]!(nextSlotAt);
    },
  };
}

describe('The in-process ticker, woken when a schedule is armed', () => {
  const logger = new ConsoleLogger('silent');
  let ticker: IntervalTicker | null = null;

  afterEach(async () => {
    await ticker?.stop();
    ticker = null;
  });

  function wakeUps() {
    const store = new MemoryStore({ clock: new ManualClock() });
    return new FeedWakeUps(store.feeds!<never>(SCHEDULE_WAKE_UPS_FEED), logger, 'an armed schedule');
  }

  it('ticks at once when a schedule is armed on any instance, and then at the slot that tick names', async () => {
    const ticks = scriptedTicks();
    const schedules = wakeUps();
    // An hour between housekeeping ticks: only the wake-up (or a minute's start) can make it tick.
    ticker = new IntervalTicker(ticks.work, 3_600_000, logger, undefined, schedules);
    await ticker.start();
    expect(ticks.count).to.equal(0);

    await schedules.signal();
    await ticks.ticked(1);
    ticks.answer(0, new Date(Date.now() + 50)); // the armed schedule names a second just ahead
    await ticks.ticked(2);
    ticks.answer(1);
  });

  it('a schedule armed while a tick runs makes the ticker look again after it', async () => {
    const ticks = scriptedTicks();
    const schedules = wakeUps();
    ticker = new IntervalTicker(ticks.work, 3_600_000, logger, undefined, schedules);
    await ticker.start();
    await schedules.signal();
    await ticks.ticked(1);
    // That tick read the schedules before this one was armed: it names no slot.
    await schedules.signal();
    ticks.answer(0, null);
    await ticks.ticked(2);
    ticks.answer(1);
  });
});
