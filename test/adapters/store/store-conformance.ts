import { expect } from 'chai';
import type { RecordSet, Store, StoredRecord } from '../../../ports/store.js';
import { DomainError } from '../../../domain/errors.js';
import { ManualClock } from '../../support/manual-clock.js';
import { closedAfter } from '../../support/closed-after.js';

/**
 * One suite every Store adapter passes. `open` builds a store over the same backing database each
 * time it is called (so two calls are two instances sharing state); `reset` empties it.
 */
export interface StoreUnderTest {
  open(clock: ManualClock): Promise<Store>;
  /** Whether two `open` calls share state (false for memory). */
  readonly shared: boolean;
}

interface Note {
  text: string;
  n?: number;
  nested?: { list: unknown[]; flag: boolean; nothing: null };
}

let setCounter = 0;
const freshName = (prefix: string) => `${prefix}_${process.pid}_${Date.now()}_${setCounter++}`;

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    expect((error as DomainError).code).to.equal(code);
    return;
  }
  expect.fail(`expected a ${code} error`);
}

export function describeStoreConformance(label: string, subject: () => StoreUnderTest | Promise<StoreUnderTest | null>): void {
  describe(`Store conformance: ${label}`, function () {
    let clock: ManualClock;
    let store: Store;
    let notes: RecordSet<Note>;
    let under: StoreUnderTest | null;
    const opened = closedAfter<Store>({ each: true });

    before(async function () {
      under = await subject();
      if (!under) this.skip();
    });

    beforeEach(async function () {
      if (!under) this.skip();
      clock = new ManualClock('2026-03-01T10:00:00.000Z');
      store = await under.open(clock);
      opened.push(store);
      notes = store.records<Note>(freshName('notes'));
    });

    describe('records get/put/delete', () => {
      it('answers null for an id that was never stored', async () => {
        expect(await notes.get('nope')).to.equal(null);
      });

      it('round-trips data and refs, starting at revision 1 with createdAt equal to updatedAt', async () => {
        const data: Note = {
          text: 'héllo ✓ "quoted" \\ back',
          n: 42.5,
          nested: { list: [1, 'two', { three: 3 }], flag: true, nothing: null },
        };
        const put = await notes.put({ id: 'a1', data, refs: { owner: 'u1', thread: 'thr_1' } });
        expect(put).to.deep.include({ id: 'a1', data, refs: { owner: 'u1', thread: 'thr_1' }, revision: 1 });
        expect(put.createdAt).to.equal('2026-03-01T10:00:00.000Z');
        expect(put.updatedAt).to.equal(put.createdAt);
        expect(await notes.get('a1')).to.deep.equal(put);
      });

      it('overwrites on put, bumping the revision and keeping createdAt', async () => {
        await notes.put({ id: 'a1', data: { text: 'one' } });
        clock.advance(5_000);
        const second = await notes.put({ id: 'a1', data: { text: 'two' }, refs: { owner: 'u2' } });
        expect(second.revision).to.equal(2);
        expect(second.createdAt).to.equal('2026-03-01T10:00:00.000Z');
        expect(second.updatedAt).to.equal('2026-03-01T10:00:05.000Z');
        expect((await notes.get('a1'))?.data).to.deep.equal({ text: 'two' });
      });

      it('hands out copies: mutating a returned record changes nothing stored', async () => {
        const put = await notes.put({ id: 'a1', data: { text: 'kept', nested: { list: [1], flag: false, nothing: null } } });
        (put.data.nested!.list as unknown[]).push(2);
        (put.data as { text: string }).text = 'changed';
        const got = await notes.get('a1');
        expect(got?.data).to.deep.equal({ text: 'kept', nested: { list: [1], flag: false, nothing: null } });
      });

      it('deletes, answering whether something was removed', async () => {
        await notes.put({ id: 'a1', data: { text: 'x' } });
        expect(await notes.delete('a1')).to.equal(true);
        expect(await notes.get('a1')).to.equal(null);
        expect(await notes.delete('a1')).to.equal(false);
      });

      it('keeps record sets apart: one id in two sets is two records', async () => {
        const other = store.records<Note>(freshName('other'));
        await notes.put({ id: 'same', data: { text: 'notes' } });
        await other.put({ id: 'same', data: { text: 'other' } });
        expect((await notes.get('same'))?.data.text).to.equal('notes');
        expect((await other.get('same'))?.data.text).to.equal('other');
        await other.delete('same');
        expect(await notes.get('same')).to.not.equal(null);
      });

      it('stores ids with punctuation and unicode exactly', async () => {
        const id = "app_1/records/col:ü'; DROP TABLE x;--";
        await notes.put({ id, data: { text: 'odd' } });
        expect((await notes.get(id))?.id).to.equal(id);
      });

      it('finds nothing under a key it cannot store (NUL, a lone surrogate) and refuses to write one as invalid input', async () => {
        await notes.put({ id: 'kept', data: { text: 'with a NUL \u0000 inside the data' }, refs: { owner: 'ada' } });
        expect((await notes.get('kept'))?.data.text).to.equal('with a NUL \u0000 inside the data');
        for (const bad of ['kept\u0000', '\u0000', 'x\ud800', 'x\udc00y']) {
          expect(await notes.get(bad), JSON.stringify(bad)).to.equal(null);
          expect(await notes.delete(bad)).to.equal(false);
          expect((await notes.list({ refs: { owner: bad } })).items).to.deep.equal([]);
          expect((await notes.list({ refs: { [bad]: 'ada' } })).items).to.deep.equal([]);
          await rejectsWithCode(notes.put({ id: bad, data: { text: 'x' } }), 'validation');
          await rejectsWithCode(notes.put({ id: 'fine', data: { text: 'x' }, refs: { owner: bad } }), 'validation');
          if (notes.atomic) {
            await rejectsWithCode(notes.atomic.insertIfAbsent({ id: bad, data: { text: 'x' } }), 'validation');
            await rejectsWithCode(
              notes.atomic.insertManyIfAbsent([
                { id: 'fine2', data: { text: 'x' } },
                { id: bad, data: { text: 'x' } },
              ]),
              'validation',
            );
            expect(await notes.atomic.compareAndSwap(bad, 1, { data: { text: 'x' } })).to.equal(null);
          }
        }
        expect(await notes.get('fine')).to.equal(null);
        expect(await notes.get('fine2')).to.equal(null);
        const blobs = store.blobs(freshName('app'));
        expect(await blobs.get('a\u0000')).to.equal(null);
        expect(await blobs.delete('a\u0000')).to.equal(false);
        await rejectsWithCode(blobs.put('a\u0000', new Uint8Array([1]), 'text/plain'), 'validation');
        await rejectsWithCode(blobs.put('a', new Uint8Array([1]), 'text/plain\u0000'), 'validation');
        expect(await blobs.list()).to.deep.equal([]);
      });
    });

    describe('records list', () => {
      async function seed(count: number, refsFor: (i: number) => Record<string, string> = () => ({})) {
        for (let i = 0; i < count; i++) {
          await notes.put({ id: `n${String(i).padStart(3, '0')}`, data: { text: `note ${i}`, n: i }, refs: refsFor(i) });
          clock.advance(1_000);
        }
      }

      it('lists newest first', async () => {
        await seed(3);
        const page = await notes.list();
        expect(page.items.map((r) => r.id)).to.deep.equal(['n002', 'n001', 'n000']);
        expect(page.nextCursor).to.equal(null);
      });

      it('breaks ties of creation time by id, descending', async () => {
        for (const id of ['b', 'c', 'a']) await notes.put({ id, data: { text: id } });
        expect((await notes.list()).items.map((r) => r.id)).to.deep.equal(['c', 'b', 'a']);
      });

      it('keeps a record in its place when it is overwritten', async () => {
        await seed(3);
        await notes.put({ id: 'n000', data: { text: 'edited' } });
        expect((await notes.list()).items.map((r) => r.id)).to.deep.equal(['n002', 'n001', 'n000']);
      });

      it('pages with a cursor through every record exactly once', async () => {
        await seed(23);
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = await notes.list({ limit: 5, cursor });
          expect(page.items.length).to.be.at.most(5);
          seen.push(...page.items.map((r) => r.id));
          cursor = page.nextCursor;
          pages++;
        } while (cursor);
        expect(pages).to.equal(5);
        expect(seen).to.have.length(23);
        expect(new Set(seen).size).to.equal(23);
        expect(seen[0]).to.equal('n022');
        expect(seen[22]).to.equal('n000');
      });

      it('gives no cursor when the last page is exactly full', async () => {
        await seed(4);
        const first = await notes.list({ limit: 2 });
        const second = await notes.list({ limit: 2, cursor: first.nextCursor });
        expect(second.items.map((r) => r.id)).to.deep.equal(['n001', 'n000']);
        expect(second.nextCursor).to.equal(null);
      });

      it('filters by one ref and by several refs together', async () => {
        await seed(12, (i) => ({ owner: i % 2 ? 'odd' : 'even', bucket: String(i % 3) }));
        const odd = await notes.list({ refs: { owner: 'odd' } });
        expect(odd.items.map((r) => r.data.n)).to.deep.equal([11, 9, 7, 5, 3, 1]);
        const both = await notes.list({ refs: { owner: 'odd', bucket: '0' } });
        expect(both.items.map((r) => r.data.n)).to.deep.equal([9, 3]);
        expect((await notes.list({ refs: { owner: 'nobody' } })).items).to.deep.equal([]);
      });

      it('pages a filtered list without leaking other refs', async () => {
        await seed(20, (i) => ({ owner: i < 15 ? 'a' : 'b' }));
        const first = await notes.list({ refs: { owner: 'a' }, limit: 10 });
        const second = await notes.list({ refs: { owner: 'a' }, limit: 10, cursor: first.nextCursor });
        const all = [...first.items, ...second.items];
        expect(all).to.have.length(15);
        expect(all.every((r) => r.refs.owner === 'a')).to.equal(true);
        expect(second.nextCursor).to.equal(null);
      });

      it('follows refs that change on a later put', async () => {
        await notes.put({ id: 'moved', data: { text: 'x' }, refs: { owner: 'anon' } });
        await notes.put({ id: 'moved', data: { text: 'x' }, refs: { owner: 'user' } });
        expect((await notes.list({ refs: { owner: 'anon' } })).items).to.have.length(0);
        expect((await notes.list({ refs: { owner: 'user' } })).items.map((r) => r.id)).to.deep.equal(['moved']);
      });

      it('drops a deleted record from filtered lists', async () => {
        await notes.put({ id: 'gone', data: { text: 'x' }, refs: { owner: 'u' } });
        await notes.delete('gone');
        expect((await notes.list({ refs: { owner: 'u' } })).items).to.have.length(0);
      });

      it('refuses a cursor it did not produce and a limit out of range', async () => {
        await rejectsWithCode(notes.list({ cursor: 'not-a-cursor' }), 'validation');
        await rejectsWithCode(notes.list({ limit: 0 }), 'validation');
        await rejectsWithCode(notes.list({ limit: 501 }), 'validation');
      });
    });

    describe('claim', () => {
      it('is offered', () => {
        expect(notes.claim).to.be.a('function');
      });

      it('answers true for a matching read and replaces the record', async () => {
        const read = await notes.put({ id: 'c1', data: { text: 'pending' }, refs: { owner: 'u' } });
        clock.advance(1_000);
        expect(await notes.claim!(read, { data: { text: 'claimed' } })).to.equal(true);
        const after = await notes.get('c1');
        expect(after).to.deep.include({ revision: 2, data: { text: 'claimed' }, refs: { owner: 'u' } });
        expect(after?.updatedAt).to.equal('2026-03-01T10:00:01.000Z');
      });

      it('answers false for a stale read and leaves the record alone', async () => {
        const stale = await notes.put({ id: 'c1', data: { text: 'one' } });
        await notes.put({ id: 'c1', data: { text: 'two' } });
        expect(await notes.claim!(stale, { data: { text: 'claimed' } })).to.equal(false);
        expect((await notes.get('c1'))?.data.text).to.equal('two');
      });

      it('consumes the record when no replacement is given', async () => {
        const read = await notes.put({ id: 'c1', data: { text: 'token' } });
        expect(await notes.claim!(read)).to.equal(true);
        expect(await notes.get('c1')).to.equal(null);
        expect(await notes.claim!(read)).to.equal(false);
      });

      it('answers false for a record that is gone', async () => {
        const read = await notes.put({ id: 'c1', data: { text: 'x' } });
        await notes.delete('c1');
        expect(await notes.claim!(read, { data: { text: 'y' } })).to.equal(false);
        expect(await notes.get('c1')).to.equal(null);
      });

      it('gives exactly one true to 50 concurrent claims of one record', async () => {
        const read = await notes.put({ id: 'race', data: { text: 'pending' } });
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => notes.claim!(read, { data: { text: `winner ${i}` } })));
        expect(results.filter(Boolean)).to.have.length(1);
        const winner = results.indexOf(true);
        expect((await notes.get('race'))?.data.text).to.equal(`winner ${winner}`);
      });

      it('gives exactly one true to 50 concurrent consuming claims', async () => {
        const read = await notes.put({ id: 'race', data: { text: 'token' } });
        const results = await Promise.all(Array.from({ length: 50 }, () => notes.claim!(read)));
        expect(results.filter(Boolean)).to.have.length(1);
      });
    });

    describe('atomic.insertIfAbsent', () => {
      it('inserts once and answers null after', async () => {
        const first = await notes.atomic!.insertIfAbsent({ id: 'i1', data: { text: 'first' }, refs: { owner: 'u' } });
        expect(first).to.deep.include({ id: 'i1', revision: 1, data: { text: 'first' }, refs: { owner: 'u' } });
        expect(await notes.atomic!.insertIfAbsent({ id: 'i1', data: { text: 'second' } })).to.equal(null);
        expect((await notes.get('i1'))?.data.text).to.equal('first');
        expect((await notes.list({ refs: { owner: 'u' } })).items).to.have.length(1);
      });

      it('gives exactly one winner among 50 concurrent inserts of one id, and keeps its data', async () => {
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            notes.atomic!.insertIfAbsent({ id: 'slot', data: { text: `caller ${i}`, n: i }, refs: { k: String(i) } }),
          ),
        );
        const winners = results.filter((r): r is StoredRecord<Note> => r !== null);
        expect(winners).to.have.length(1);
        const stored = await notes.get('slot');
        expect(stored?.data).to.deep.equal(winners[0]!.data);
        expect(stored?.refs).to.deep.equal(winners[0]!.refs);
      });
    });

    describe('atomic.insertManyIfAbsent', () => {
      it('inserts the absent ids, skips the present ones, and answers with what it inserted', async () => {
        await notes.put({ id: 'm2', data: { text: 'already here' } });
        const inserted = await notes.atomic!.insertManyIfAbsent([
          { id: 'm1', data: { text: 'one' }, refs: { owner: 'u' } },
          { id: 'm2', data: { text: 'two' } },
          { id: 'm3', data: { text: 'three' } },
          { id: 'm1', data: { text: 'one again' } },
        ]);
        expect(inserted.map((r) => [r.id, r.data.text, r.revision])).to.deep.equal([
          ['m1', 'one', 1],
          ['m3', 'three', 1],
        ]);
        expect((await notes.get('m2'))?.data.text).to.equal('already here');
        expect((await notes.get('m1'))?.refs).to.deep.equal({ owner: 'u' });
        expect((await notes.list({ refs: { owner: 'u' } })).items.map((r) => r.id)).to.deep.equal(['m1']);
      });

      it('handles a batch larger than one statement', async () => {
        const inputs = Array.from({ length: 1_234 }, (_, i) => ({ id: `b${i}`, data: { text: `n${i}`, n: i } }));
        expect(await notes.atomic!.insertManyIfAbsent(inputs)).to.have.length(1_234);
        expect(await notes.atomic!.insertManyIfAbsent(inputs)).to.have.length(0);
        expect((await notes.get('b1233'))?.data.n).to.equal(1_233);
      });

      it('gives every id to exactly one of several overlapping batches racing', async () => {
        const batch = (offset: number) =>
          Array.from({ length: 300 }, (_, i) => ({ id: `slot_${(i + offset) % 400}`, data: { text: `by ${offset}` } }));
        const results = await Promise.all(
          [0, 50, 100, 150, 200, 250, 300, 350].map((offset) => notes.atomic!.insertManyIfAbsent(batch(offset))),
        );
        const ids = results.flat().map((r) => r.id);
        expect(ids).to.have.length(400);
        expect(new Set(ids).size).to.equal(400);
      });
    });

    describe('atomic.compareAndSwap', () => {
      it('swaps on the expected revision and refuses any other', async () => {
        await notes.put({ id: 's1', data: { text: 'v1' }, refs: { owner: 'a' } });
        const swapped = await notes.atomic!.compareAndSwap('s1', 1, { data: { text: 'v2' }, refs: { owner: 'b' } });
        expect(swapped).to.deep.include({ revision: 2, data: { text: 'v2' }, refs: { owner: 'b' } });
        expect(await notes.atomic!.compareAndSwap('s1', 1, { data: { text: 'v3' } })).to.equal(null);
        expect((await notes.list({ refs: { owner: 'b' } })).items.map((r) => r.id)).to.deep.equal(['s1']);
        expect((await notes.list({ refs: { owner: 'a' } })).items).to.have.length(0);
      });

      it('keeps refs when the replacement names none', async () => {
        await notes.put({ id: 's1', data: { text: 'v1' }, refs: { owner: 'a' } });
        const swapped = await notes.atomic!.compareAndSwap('s1', 1, { data: { text: 'v2' } });
        expect(swapped?.refs).to.deep.equal({ owner: 'a' });
      });

      it('answers null for a missing record', async () => {
        expect(await notes.atomic!.compareAndSwap('missing', 1, { data: { text: 'x' } })).to.equal(null);
        expect(await notes.get('missing')).to.equal(null);
      });

      it('gives exactly one winner among 50 concurrent swaps from one revision', async () => {
        await notes.put({ id: 's1', data: { text: 'v1' } });
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => notes.atomic!.compareAndSwap('s1', 1, { data: { text: `v2 by ${i}` } })),
        );
        expect(results.filter((r) => r !== null)).to.have.length(1);
        expect((await notes.get('s1'))?.revision).to.equal(2);
      });
    });

    describe('blobs', () => {
      it('round-trips bytes with their content type and size', async () => {
        const blobs = store.blobs(freshName('app'));
        const bytes = new Uint8Array([0, 1, 2, 255, 0, 128, 10, 13]);
        const info = await blobs.put('img/logo.png', bytes, 'image/png');
        expect(info).to.deep.include({ key: 'img/logo.png', contentType: 'image/png', size: 8 });
        const got = await blobs.get('img/logo.png');
        expect(got?.contentType).to.equal('image/png');
        expect(Buffer.from(got!.bytes).equals(Buffer.from(bytes))).to.equal(true);
      });

      it('answers null for a missing key, overwrites, lists in key order and deletes', async () => {
        const blobs = store.blobs(freshName('app'));
        expect(await blobs.get('none')).to.equal(null);
        await blobs.put('b', new Uint8Array([1]), 'text/plain');
        await blobs.put('a', new Uint8Array([2, 3]), 'text/plain');
        await blobs.put('b', new Uint8Array([4, 5, 6]), 'application/octet-stream');
        const list = await blobs.list();
        expect(list.map((b) => [b.key, b.size, b.contentType])).to.deep.equal([
          ['a', 2, 'text/plain'],
          ['b', 3, 'application/octet-stream'],
        ]);
        expect(await blobs.delete('a')).to.equal(true);
        expect(await blobs.delete('a')).to.equal(false);
        expect((await blobs.list()).map((b) => b.key)).to.deep.equal(['b']);
      });

      it('keeps namespaces apart', async () => {
        const one = store.blobs(freshName('one'));
        const two = store.blobs(freshName('two'));
        await one.put('k', new Uint8Array([1]), 'text/plain');
        expect(await two.get('k')).to.equal(null);
        expect(await two.list()).to.deep.equal([]);
      });

      it('stores an empty blob', async () => {
        const blobs = store.blobs(freshName('app'));
        await blobs.put('empty', new Uint8Array(), 'text/plain');
        expect((await blobs.get('empty'))?.size).to.equal(0);
      });
    });

    describe('shared state between instances', () => {
      it('lets two instances see each other and gives one winner when they race', async function () {
        if (!under!.shared) this.skip();
        const second = await under!.open(clock);
        opened.push(second);
        const name = freshName('shared');
        const mine = store.records<Note>(name);
        const theirs = second.records<Note>(name);
        const read = await mine.put({ id: 'x', data: { text: 'pending' } });
        expect((await theirs.get('x'))?.data.text).to.equal('pending');
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 ? mine : theirs).claim!(read, { data: { text: `by ${i}` } })),
        );
        expect(results.filter(Boolean)).to.have.length(1);
        const inserts = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 ? mine : theirs).atomic!.insertIfAbsent({ id: 'y', data: { text: `by ${i}` } })),
        );
        expect(inserts.filter((r) => r !== null)).to.have.length(1);
        const batches = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 ? mine : theirs).atomic!.insertManyIfAbsent(
              Array.from({ length: 200 }, (_, k) => ({ id: `z${(k + i * 37) % 250}`, data: { text: `by ${i}` } })),
            ),
          ),
        );
        const claimed = batches.flat().map((r) => r.id);
        expect(new Set(claimed).size).to.equal(claimed.length);
        expect(claimed).to.have.length(250);
      });

      it('keeps what was written after the store is closed and opened again', async function () {
        if (!under!.shared) this.skip();
        const name = freshName('durable');
        await store.records<Note>(name).put({ id: 'kept', data: { text: 'still here' }, refs: { owner: 'u' } });
        await store.blobs(name).put('b', new Uint8Array([7]), 'text/plain');
        await store.close();
        opened.pop();
        const again = await under!.open(clock);
        opened.push(again);
        expect((await again.records<Note>(name).get('kept'))?.data.text).to.equal('still here');
        expect((await again.records<Note>(name).list({ refs: { owner: 'u' } })).items).to.have.length(1);
        expect((await again.blobs(name).get('b'))?.size).to.equal(1);
      });
    });

    describe('feeds', () => {
      interface Entry {
        n: number;
        text?: string;
      }
      const entries = (from: number, count: number): Entry[] => Array.from({ length: count }, (_, i) => ({ n: from + i }));
      /** Resolves on the next wake-up of `key`'s watchers, or null after `ms`. */
      const nextWake = async (feed: ReturnType<Store['feeds'] & {}>, key: string, ms = 2_000) => {
        let woke!: () => void;
        const woken = new Promise<true>((resolve) => (woke = () => resolve(true)));
        const unwatch = await feed.watch(key, woke);
        return {
          woken: Promise.race([woken, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]).finally(unwatch),
          unwatch,
        };
      };

      it('reads entries back from any position, in order, and takes a retried append once', async () => {
        const feed = store.feeds!<Entry>(freshName('feed'));
        expect(await feed.read('k', 0)).to.deep.equal([]);
        await feed.append('k', 0, entries(0, 3));
        await feed.append('k', 3, [{ n: 3, text: 'ünïcödé "quoted" \\ and a newline\n' }]);
        await feed.append('k', 4, entries(4, 2));
        await feed.append('k', 4, entries(4, 2));
        expect((await feed.read('k', 0)).map((e) => e.n)).to.deep.equal([0, 1, 2, 3, 4, 5]);
        expect((await feed.read('k', 2)).map((e) => e.n)).to.deep.equal([2, 3, 4, 5]);
        expect((await feed.read('k', 3))[0]).to.deep.equal({ n: 3, text: 'ünïcödé "quoted" \\ and a newline\n' });
        expect(await feed.read('k', 6)).to.deep.equal([]);
        expect(await feed.read('other', 0)).to.deep.equal([]);
        expect(await store.feeds!<Entry>(freshName('feed')).read('k', 0), 'namespaces are apart').to.deep.equal([]);
      });

      it('wakes the watchers of a key when it grows or is signalled, and no longer once they stop watching', async () => {
        const feed = store.feeds!<Entry>(freshName('feed'));
        const first = await nextWake(feed, 'k');
        await feed.append('k', 0, entries(0, 1));
        expect(await first.woken).to.equal(true);
        const signalled = await nextWake(feed, 'k');
        await feed.signal('k');
        expect(await signalled.woken).to.equal(true);
        let woken = 0;
        const unwatch = await feed.watch('k', () => (woken += 1));
        unwatch();
        const other = await nextWake(feed, 'k');
        await feed.append('k', 1, entries(1, 1));
        await other.woken;
        expect(woken).to.equal(0);
      });

      it('drops a key, and prunes what was appended before an instant', async () => {
        const feed = store.feeds!<Entry>(freshName('feed'));
        await feed.append('old', 0, entries(0, 2));
        await feed.append('gone', 0, entries(0, 2));
        await feed.drop('gone');
        expect(await feed.read('gone', 0)).to.deep.equal([]);
        clock.advance(60_000);
        await feed.append('new', 0, entries(0, 1));
        await feed.prune(new Date(clock.now().getTime() - 30_000).toISOString());
        expect(await feed.read('old', 0)).to.deep.equal([]);
        expect(await feed.read('new', 0)).to.have.length(1);
      });

      it('refuses an empty key, a key over 200 characters, or one with NUL, and reads nothing for them', async () => {
        const feed = store.feeds!<Entry>(freshName('feed'));
        for (const key of ['', 'k'.repeat(201), 'a\u0000b']) {
          let refused = false;
          await feed.append(key, 0, entries(0, 1)).catch(() => (refused = true));
          expect(refused, JSON.stringify(key)).to.equal(true);
          expect(await feed.read(key, 0)).to.deep.equal([]);
        }
      });

      it('reaches a watcher on another instance, woken by its notification, with entries written there', async function () {
        if (store.kind !== 'postgresql') this.skip();
        const second = await under!.open(clock);
        opened.push(second);
        const name = freshName('feed');
        const writer = store.feeds!<Entry>(name);
        const reader = second.feeds!<Entry>(name);
        const waits = await nextWake(reader, 'turn');
        await writer.append('turn', 0, entries(0, 5));
        expect(await waits.woken).to.equal(true);
        expect((await reader.read('turn', 0)).map((e) => e.n)).to.deep.equal([0, 1, 2, 3, 4]);
        const signalled = await nextWake(reader, 'turn');
        await writer.signal('turn');
        expect(await signalled.woken).to.equal(true);
      });
    });

    it('answers a ping', async () => {
      await store.ping();
    });
  });
}
