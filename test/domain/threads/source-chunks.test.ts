import { expect } from 'chai';
import { applyChunk, chunksRebuilding, draftOf, type UiChunk } from '../../../domain/threads/ui-chunk.js';

describe('source chunks (citations on an answer)', () => {
  const passage: UiChunk = {
    type: 'source-document',
    sourceId: 'psg_01JABCDEFGHJKMNPQRSTVWXYZ-3',
    mediaType: 'text/plain',
    title: 'Handbook',
    providerMetadata: {
      porter: { documentId: 'doc_01JABCDEFGHJKMNPQRSTVWXYZ', passageId: 'psg_01JABCDEFGHJKMNPQRSTVWXYZ-3', start: 10, end: 90 },
    },
  };
  const page: UiChunk = { type: 'source-url', sourceId: 'web-1', url: 'https://example.com/a', title: 'A page' };

  it('become parts of the answer with their fields, a source cited twice kept once, and stream back the same on a rejoin', () => {
    const draft = draftOf({ id: 'msg_1', role: 'assistant', parts: [] });
    for (const chunk of [passage, page, passage]) applyChunk(draft, chunk);
    expect(draft.message.parts).to.deep.equal([{ ...passage }, { ...page }]);
    const rebuilt = draftOf({ id: 'msg_1', role: 'assistant', parts: [] });
    for (const chunk of chunksRebuilding(draft.message)) applyChunk(rebuilt, chunk);
    expect(rebuilt.message).to.deep.equal(draft.message);
  });
});
