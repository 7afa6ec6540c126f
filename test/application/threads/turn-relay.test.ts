import { expect } from 'chai';
import { ConsoleLogger } from '../../../adapters/runtime/console-logger.js';
import { MemoryFeeds } from '../../../adapters/store/memory/memory-feeds.js';
import { SystemClock } from '../../../adapters/runtime/system-clock.js';
import { TurnRelay } from '../../../application/threads/turn-relay.js';
import type { TurnEntry } from '../../../application/threads/turn-settings.js';
import type { UiChunk } from '../../../domain/threads/ui-chunk.js';
import type { FeedSet } from '../../../ports/feeds.js';
import { until } from '../../support/eventually.js';

/** A memory feed that keeps each append's size. */
function recordedFeed(): { feed: FeedSet<TurnEntry>; appends: number[] } {
  const memory = new MemoryFeeds(new SystemClock()).feeds<TurnEntry>('turn-chunks');
  const appends: number[] = [];
  return {
    appends,
    feed: {
      append: async (key, from, entries) => {
        appends.push(entries.length);
        await memory.append(key, from, entries);
      },
      read: (key, from) => memory.read(key, from),
      watch: (key, wake) => memory.watch(key, wake),
      signal: (key) => memory.signal(key),
      drop: (key) => memory.drop(key),
      prune: (before) => memory.prune(before),
    },
  };
}

const word = (n: number): UiChunk => ({ type: 'text-delta', id: 't', delta: `word${n} ` });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A turn's chunks reach readers on other instances through its feed. Read only where it runs, a
 * turn costs one append at its end; once a reader elsewhere follows, its chunks go as they come.
 */
describe('TurnRelay: a turn copied to its feed', () => {
  const logger = new ConsoleLogger('silent');

  it('followed by nobody elsewhere, a slow answer waits and goes in one append with its end', async () => {
    const { feed, appends } = recordedFeed();
    const relay = new TurnRelay(feed, 'trn_alone', logger, []);
    relay.push({ type: 'start' });
    for (let n = 0; n < 8; n++) {
      relay.push(word(n));
      // Longer than any window a chunk waits for others when followed.
      await pause(60);
    }
    expect(appends, 'nothing appended while the turn runs').to.deep.equal([]);
    relay.push({ type: 'finish' });
    await relay.flushed();
    expect(appends).to.deep.equal([10]);
    expect(await feed.read('trn_alone', 0)).to.have.length(10);
  });

  it('followed mid-answer, what waited goes at once and every later word as it comes, in order', async () => {
    const { feed, appends } = recordedFeed();
    const relay = new TurnRelay(feed, 'trn_followed', logger, [{ type: 'start-step' }]);
    relay.push({ type: 'start' });
    relay.push(word(0));
    relay.push(word(1));
    relay.followed();
    await until(
      () => appends.length,
      (n) => n === 1,
      { what: 'what waited to be appended' },
    );
    expect(appends, 'the prelude and the three chunks before the reader came, in one append').to.deep.equal([4]);
    for (let n = 2; n < 5; n++) {
      relay.push(word(n));
      const before = appends.length;
      await until(
        () => appends.length,
        (n) => n === before + 1,
        { what: `word${n} to be appended` },
      );
    }
    relay.push({ type: 'finish' });
    await relay.flushed();
    expect(appends).to.deep.equal([4, 1, 1, 1, 1]);
    const entries = await feed.read('trn_followed', 0);
    expect(entries.map((entry) => ('delta' in entry ? entry.delta : entry.type))).to.deep.equal([
      'prelude',
      'start',
      'word0 ',
      'word1 ',
      'word2 ',
      'word3 ',
      'word4 ',
      'finish',
    ]);
  });
});
