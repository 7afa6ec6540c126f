import { expect } from 'chai';
import { DomainError } from '../../../domain/errors.js';
import { highlightsOf } from '../../../domain/search/text-query.js';
import type { Store } from '../../../ports/store.js';
import type { TextIndex } from '../../../ports/text-index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { closedAfter } from '../../support/closed-after.js';

let counter = 0;
const freshName = (prefix: string) => `${prefix}_${process.pid}_${Date.now()}_${counter++}`;

/** The words a snippet highlights, as a person would read them. */
function marked(snippet: string): string[] {
  const { text, highlights } = highlightsOf(snippet);
  return highlights.map(({ start, end }) => text.slice(start, end));
}

/**
 * One suite every TextIndex passes (memory, SQLite FTS5, PostgreSQL tsvector). `open` builds a
 * store over the same database each time; null skips (no PostgreSQL server).
 */
export function describeTextIndexConformance(label: string, open: () => Promise<((clock: ManualClock) => Promise<Store>) | null>): void {
  describe(`TextIndex conformance: ${label}`, function () {
    let index: TextIndex;
    let opener: ((clock: ManualClock) => Promise<Store>) | null;
    let store: Store;
    const opened = closedAfter<Store>({ each: true });

    before(async function () {
      opener = await open();
      if (!opener) this.skip();
    });

    beforeEach(async function () {
      if (!opener) this.skip();
      store = await opener(new ManualClock('2026-03-01T10:00:00.000Z'));
      opened.push(store);
      index = store.textIndex!(freshName('passages'));
    });

    const seed = () =>
      index.put([
        { id: 'p1', refs: { owner: 'ann', thread: 't1' }, text: 'The quarterly budget for the Zürich office is due on Friday.' },
        { id: 'p2', refs: { owner: 'ann', thread: 't1' }, text: 'Lunch plans: pizza or sushi?' },
        { id: 'p3', refs: { owner: 'ann', thread: 't2' }, text: 'Budget budget budget: the budget again.' },
        { id: 'p4', refs: { owner: 'bob', thread: 't3' }, text: 'Bob keeps his own budget notes here.' },
      ]);

    it('finds a word inside the text, scoped to the filter, with the word marked in the snippet', async () => {
      await seed();
      const hits = await index.search({ text: 'budget', where: { owner: 'ann' } });
      expect(hits.map((hit) => hit.id).sort()).to.deep.equal(['p1', 'p3']);
      const p1 = hits.find((hit) => hit.id === 'p1')!;
      expect(p1.refs).to.deep.equal({ owner: 'ann', thread: 't1' });
      expect(marked(p1.snippet)).to.deep.equal(['budget']);
      expect(highlightsOf(p1.snippet).text).to.contain('quarterly budget for the Zürich');
    });

    it('ranks the passage that is most about the words first', async () => {
      await seed();
      const hits = await index.search({ text: 'budget', where: { owner: 'ann' } });
      expect(hits[0]!.id).to.equal('p3');
      expect(hits[0]!.rank).to.be.greaterThan(hits[1]!.rank);
    });

    it('needs every word, each as the start of a word, case and accents folded', async () => {
      await seed();
      const ids = async (text: string) => (await index.search({ text, where: { owner: 'ann' } })).map((hit) => hit.id).sort();
      expect(await ids('quarterly friday')).to.deep.equal(['p1']);
      expect(await ids('QUART bud')).to.deep.equal(['p1']);
      expect(await ids('zurich')).to.deep.equal(['p1']);
      expect(await ids('ZÜRICH')).to.deep.equal(['p1']);
      expect(await ids('pizza budget')).to.deep.equal([]);
      expect(await ids('udget')).to.deep.equal([]);
    });

    it("never answers another person's passage", async () => {
      await seed();
      expect((await index.search({ text: 'notes', where: { owner: 'ann' } })).length).to.equal(0);
      expect((await index.search({ text: 'budget', where: { owner: 'bob' } })).map((hit) => hit.id)).to.deep.equal(['p4']);
      expect(await index.search({ text: 'budget', where: { owner: 'nobody' } })).to.deep.equal([]);
    });

    it('filters by any of several values, and by several labels at once', async () => {
      await seed();
      const ids = async (where: Record<string, string | string[]>) =>
        (await index.search({ text: 'budget', where })).map((hit) => hit.id).sort();
      expect(await ids({ thread: ['t2', 't3'] })).to.deep.equal(['p3', 'p4']);
      expect(await ids({ owner: 'ann', thread: ['t1', 't3'] })).to.deep.equal(['p1']);
      expect(await ids({ owner: 'ann', thread: [] })).to.deep.equal([]);
      expect(await ids({})).to.deep.equal(['p1', 'p3', 'p4']);
      expect(await ids({ colour: 'red' })).to.deep.equal([]);
    });

    it('answers hostile queries normally: never as query syntax, never an error', async () => {
      await seed();
      await index.put([{ id: 'p5', refs: { owner: 'ann' }, text: 'He said "NEAR" and OR and NOT - * ^ {x} col:val' }]);
      for (const text of [
        '"',
        '*',
        'NEAR(',
        '-',
        'OR',
        'AND',
        'NOT',
        '(',
        ')',
        '^',
        ':',
        '{',
        "'",
        '\\',
        "budget'",
        'budget"',
        '"budget',
        'budget*',
        'text:budget',
        'keys:k',
        'k',
        '\u0000',
        '\ud800',
        '-budget',
        'budget OR pizza',
        'NEAR(budget pizza)',
        "' or 1=1 --",
        '&|!<->:*',
      ]) {
        const hits = await index.search({ text, where: { owner: 'ann' } });
        expect(hits, text).to.be.an('array');
      }
      expect((await index.search({ text: '-budget', where: { owner: 'ann' } })).map((hit) => hit.id).sort()).to.deep.equal(['p1', 'p3']);
      expect((await index.search({ text: 'budget OR pizza', where: { owner: 'ann' } })).length).to.equal(0);
      expect((await index.search({ text: 'NEAR(', where: { owner: 'ann' } })).map((hit) => hit.id)).to.deep.equal(['p5']);
      expect((await index.search({ text: 'col:val', where: { owner: 'ann' } })).map((hit) => hit.id)).to.deep.equal(['p5']);
      expect(await index.search({ text: '"*"', where: { owner: 'ann' } })).to.deep.equal([]);
      expect(await index.search({ text: 'k', where: { owner: 'ann' } })).to.deep.equal([]);
    });

    it('replaces a passage put again with the same id', async () => {
      await seed();
      await index.put([{ id: 'p2', refs: { owner: 'ann', thread: 't1' }, text: 'Dinner instead' }]);
      expect(await index.search({ text: 'pizza', where: { owner: 'ann' } })).to.deep.equal([]);
      expect((await index.search({ text: 'dinner', where: { owner: 'ann' } })).map((hit) => hit.id)).to.deep.equal(['p2']);
      await index.put([{ id: 'p2', refs: { owner: 'bob', thread: 't9' }, text: 'Dinner instead' }]);
      expect(await index.search({ text: 'dinner', where: { owner: 'ann' } })).to.deep.equal([]);
      expect((await index.search({ text: 'dinner', where: { owner: 'bob' } }))[0]!.refs).to.deep.equal({ owner: 'bob', thread: 't9' });
    });

    it('deletes by id and by labels, leaving the rest', async () => {
      await seed();
      expect(await index.delete(['p2', 'nope'])).to.equal(1);
      expect(await index.search({ text: 'pizza', where: {} })).to.deep.equal([]);
      expect(await index.deleteWhere({ owner: 'ann', thread: 't1' })).to.equal(1);
      expect((await index.search({ text: 'budget', where: {} })).map((hit) => hit.id).sort()).to.deep.equal(['p3', 'p4']);
      expect(await index.deleteWhere({ thread: ['t2', 't3'] })).to.equal(2);
      expect(await index.search({ text: 'budget', where: {} })).to.deep.equal([]);
    });

    it('refuses to delete with an empty filter', async () => {
      await seed();
      try {
        await index.deleteWhere({});
        expect.fail('expected a refusal');
      } catch (error) {
        expect(error).to.be.instanceOf(DomainError);
      }
      expect((await index.search({ text: 'budget', where: {} })).length).to.equal(3);
    });

    it('keeps collections apart', async () => {
      await seed();
      const other = store.textIndex!(freshName('other'));
      await other.put([{ id: 'p1', refs: { owner: 'ann' }, text: 'Completely different' }]);
      expect(await other.search({ text: 'budget', where: { owner: 'ann' } })).to.deep.equal([]);
      expect((await index.search({ text: 'completely', where: {} })).length).to.equal(0);
    });

    it('honours the limit, best first', async () => {
      await index.put(Array.from({ length: 30 }, (_, n) => ({ id: `m${n}`, refs: { owner: 'ann' }, text: `apple ${'pear '.repeat(n)}` })));
      const hits = await index.search({ text: 'apple', where: { owner: 'ann' }, limit: 5 });
      expect(hits.length).to.equal(5);
      expect(hits[0]!.id).to.equal('m0');
    });

    it('never lets text forge a highlight: marker characters in a passage are stored as spaces', async () => {
      await index.put([{ id: 'x', refs: { owner: 'ann' }, text: 'fake \u0002bold\u0003 and real kiwi' }]);
      const [hit] = await index.search({ text: 'kiwi', where: { owner: 'ann' } });
      expect(marked(hit!.snippet)).to.deep.equal(['kiwi']);
    });

    it('keeps a long passage and still marks a match deep inside it', async () => {
      const long = `${'filler '.repeat(3000)}needle ${'filler '.repeat(3000)}`;
      await index.put([{ id: 'long', refs: { owner: 'ann' }, text: long }]);
      const [hit] = await index.search({ text: 'needle', where: { owner: 'ann' } });
      expect(marked(hit!.snippet)).to.deep.equal(['needle']);
      expect(hit!.snippet.length).to.be.lessThan(400);
    });

    it('refuses an id it could not keep exactly', async () => {
      try {
        await index.put([{ id: 'bad\u0000id', refs: {}, text: 'x' }]);
        expect.fail('expected a refusal');
      } catch (error) {
        expect(error).to.be.instanceOf(DomainError);
      }
    });
  });
}
