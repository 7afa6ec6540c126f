import { expect } from 'chai';
import { chunkText } from '../../../domain/knowledge/chunking.js';
import { passageId, passageRef } from '../../../domain/knowledge/knowledge-document.js';

describe('Chunking a document into passages', () => {
  const prose = Array.from({ length: 200 }, (_, i) => `Sentence number ${i} says something plain.`).join(' ');

  it('covers the whole text in passages of at most the size, each overlapping the one before, cut between words', () => {
    const spans = chunkText(prose, { size: 300, overlap: 60 });
    expect(spans.length).to.be.greaterThan(20);
    expect(spans[0]!.start).to.equal(0);
    expect(spans.at(-1)!.end).to.equal(prose.length);
    for (const [i, span] of spans.entries()) {
      expect(span.end - span.start).to.be.at.most(300);
      expect(prose[span.start - 1] ?? ' ', 'starts a word').to.match(/\s/);
      expect(prose[span.end] ?? ' ', 'ends a word').to.match(/[\s.]/);
      if (i > 0) expect(span.start, 'overlaps the one before').to.be.lessThan(spans[i - 1]!.end);
    }
  });

  it('prefers a paragraph break, then a sentence end, as the place to cut', () => {
    const text = `${'a '.repeat(200)}\n\n${'b '.repeat(400)}`;
    const [first] = chunkText(text, { size: 600, overlap: 100 });
    expect(text.slice(first!.start, first!.end).trim().endsWith('a')).to.equal(true);
    const sentences = `${'word '.repeat(100)}End here. ${'more '.repeat(200)}`;
    const [cut] = chunkText(sentences, { size: 700, overlap: 100 });
    expect(sentences.slice(cut!.start, cut!.end)).to.match(/End here\.$/);
  });

  it('keeps a text without spaces whole per character, never splitting a surrogate pair, and has none for blank text', () => {
    const emoji = '😀'.repeat(500);
    for (const span of chunkText(emoji, { size: 301, overlap: 50 })) {
      expect(span.start % 2).to.equal(0);
      expect(span.end % 2).to.equal(0);
    }
    expect(chunkText(' \n\t ')).to.deep.equal([]);
    expect(chunkText('short')).to.deep.equal([{ start: 0, end: 5 }]);
  });

  it('a passage id names its document and place, and nothing else parses as one', () => {
    const id = passageId('doc_01JABCDEFGHJKMNPQRSTVWXYZ', 7);
    expect(id).to.equal('psg_01JABCDEFGHJKMNPQRSTVWXYZ-7');
    expect(passageRef(id)).to.deep.equal({ documentId: 'doc_01JABCDEFGHJKMNPQRSTVWXYZ', index: 7 });
    for (const bad of ['psg_abc', 'doc_01J-1', 'psg_-1', 'psg_01J-x', 'psg_01J-1.5', 'psg_01J-'])
      expect(passageRef(bad), bad).to.equal(null);
  });
});
