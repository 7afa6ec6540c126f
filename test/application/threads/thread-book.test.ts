import { expect } from 'chai';
import { ThreadBook } from '../../../application/threads/thread-book.js';
import { ThreadText } from '../../../application/threads/thread-text.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { Thread, type ThreadPrimitives } from '../../../domain/threads/thread.js';
import type { UiMessage } from '../../../domain/threads/ui-message.js';
import { ManualClock } from '../../support/manual-clock.js';

const bookOn = (store: MemoryStore) =>
  new ThreadBook(
    store.records<ThreadPrimitives>('threads'),
    store.records<UiMessage>('thread-messages'),
    new ThreadText(store.textIndex('threads')),
  );

describe('ThreadBook', () => {
  const now = '2026-01-01T00:00:00.000Z';

  it('gives a turn lease to exactly one of two racing turns', async () => {
    const book = bookOn(new MemoryStore({ clock: new ManualClock() }));
    await book.save(Thread.start({ id: 'thr_0000000001', owner: 'ada', now }));
    const read = (await book.find('thr_0000000001'))!;
    const won = await Promise.all(['a', 'b'].map((turn) => book.swap(read, read.thread.startTurn(turn, now, 60_000))));
    expect(won.filter(Boolean)).to.have.length(1);
  });

  it('fails closed on a store without compare-and-swap: no turn takes the lease', async () => {
    const book = bookOn(new MemoryStore({ clock: new ManualClock(), atomic: false }));
    await book.save(Thread.start({ id: 'thr_0000000001', owner: 'ada', now }));
    const read = (await book.find('thr_0000000001'))!;
    let code = '';
    try {
      await book.swap(read, read.thread.startTurn('a', now, 60_000));
    } catch (error) {
      code = (error as { code?: string }).code ?? '';
    }
    expect(code).to.equal('unavailable');
    expect((await book.find('thr_0000000001'))!.thread.canStartTurnAt(now)).to.equal(true);
  });
});
