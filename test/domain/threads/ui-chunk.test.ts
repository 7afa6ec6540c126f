import { expect } from 'chai';
import { applyChunk, chunksRebuilding, draftOf } from '../../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../../domain/threads/ui-message.js';

describe('chunksRebuilding', () => {
  it('streams a stored answer back into the same message: text, steps, calls in every state, data parts', () => {
    const answer: UiMessage = {
      id: 'msg_1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'text', text: 'Let me look.', state: 'done' },
        { type: 'tool-notes_list', toolCallId: 'c1', state: 'output-available', input: {}, output: { notes: [] } },
        { type: 'tool-notes_add', toolCallId: 'c2', state: 'approval-requested', input: { text: 'milk' }, approval: { id: 'apr_1' } },
        { type: 'data-porter-approval', id: 'porter-approval:apr_1', data: { approvalId: 'apr_1' } },
        { type: 'tool-notes_clear', toolCallId: 'c3', state: 'output-error', input: {}, errorText: 'no' },
        { type: 'step-start' },
        { type: 'text', text: 'Done.', state: 'done' },
      ],
    };
    const draft = draftOf({ id: 'msg_1', role: 'assistant', parts: [] });
    for (const chunk of chunksRebuilding(answer)) applyChunk(draft, chunk);
    expect(draft.message).to.deep.equal(answer);
  });
});
