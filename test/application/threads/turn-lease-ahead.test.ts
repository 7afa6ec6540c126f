import { expect } from 'chai';
import { MemoryFeeds } from '../../../adapters/store/memory/memory-feeds.js';
import { SystemClock } from '../../../adapters/runtime/system-clock.js';
import { watchAhead } from '../../../application/threads/turn-lease.js';
import { TURN_CHUNKS_FEED, TURN_SIGNALS_FEED, type TurnFeeds } from '../../../application/threads/turn-settings.js';

/**
 * A turn watches its stop signal before it takes its thread, so its lease need not read the
 * thread when it begins: only a signal that rang in between sends it to look.
 */
describe('A stop watch begun before the turn took its thread', () => {
  const feedsOf = (): TurnFeeds => {
    const memory = new MemoryFeeds(new SystemClock());
    return { chunks: memory.feeds(TURN_CHUNKS_FEED), signals: memory.feeds(TURN_SIGNALS_FEED) };
  };

  it('says it rang when a stop signalled the turn before the lease took it over, and wakes the lease after', async () => {
    const feeds = feedsOf();
    const ahead = await watchAhead(feeds, 'trn_1', 60_000);
    await feeds.signals.signal('trn_1');
    let looks = 0;
    const taken = ahead.take(() => (looks += 1));
    expect(taken?.rang).to.equal(true);
    await feeds.signals.signal('trn_1');
    expect(looks).to.equal(1);
    taken!.unwatch();
    await feeds.signals.signal('trn_1');
    expect(looks).to.equal(1);
  });

  it('says it did not ring when nothing signalled the turn, nor another turn', async () => {
    const feeds = feedsOf();
    const ahead = await watchAhead(feeds, 'trn_2', 60_000);
    await feeds.signals.signal('trn_other');
    const taken = ahead.take(() => undefined);
    expect(taken?.rang).to.equal(false);
    taken!.unwatch();
  });

  it('dropped (the turn did not run), it can no longer be taken: a lease then watches anew', async () => {
    const feeds = feedsOf();
    const ahead = await watchAhead(feeds, 'trn_3', 60_000);
    ahead.drop();
    ahead.drop();
    expect(ahead.take(() => undefined)).to.equal(null);
  });
});
