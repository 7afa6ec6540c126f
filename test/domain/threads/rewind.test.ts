import { expect } from 'chai';
import { AnswerAwaitsApprovals, NotYourMessage, OnlyTheLastExchange, rewound } from '../../../domain/threads/rewind.js';
import type { UiMessage } from '../../../domain/threads/ui-message.js';

const user = (id: string, text = id): UiMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const answer = (id: string, parts: UiMessage['parts'] = [{ type: 'text', text: id }]): UiMessage => ({ id, role: 'assistant', parts });
const thread = [user('u1'), answer('a1'), user('u2'), answer('a2')];

describe('rewound (regenerate and edit-and-resend)', () => {
  it('regenerating drops the last answer only, named or not, by its id or the message it answered', () => {
    for (const messageId of [undefined, 'a2', 'u2', 'client-side-id']) {
      const { kept, removed } = rewound(thread, messageId === undefined ? { kind: 'answer' } : { kind: 'answer', messageId });
      expect(
        kept.map((m) => m.id),
        String(messageId),
      ).to.deep.equal(['u1', 'a1', 'u2']);
      expect(removed).to.deep.equal(['a2']);
    }
  });

  it("editing drops the person's last message and everything after it", () => {
    for (const messageId of ['u2', 'client-side-id']) {
      const { kept, removed } = rewound(thread, { kind: 'message', messageId });
      expect(kept.map((m) => m.id)).to.deep.equal(['u1', 'a1']);
      expect(removed).to.deep.equal(['u2', 'a2']);
    }
  });

  it('editing an earlier message of the person rewinds the thread to it: it and everything after it go', () => {
    const { kept, removed } = rewound(thread, { kind: 'message', messageId: 'u1' });
    expect(kept).to.deep.equal([]);
    expect(removed).to.deep.equal(['u1', 'a1', 'u2', 'a2']);
    expect(() => rewound(thread, { kind: 'message', messageId: 'a1' })).to.throw(NotYourMessage, 'Only a message you sent can be edited');
    const parked = answer('a1', [{ type: 'tool-notes_add', toolCallId: 'c1', state: 'approval-requested', approval: { id: 'apr_1' } }]);
    expect(() => rewound([user('u1'), parked, user('u2'), answer('a2')], { kind: 'message', messageId: 'u1' })).to.throw(
      AnswerAwaitsApprovals,
    );
  });

  it('refuses to regenerate anything older than the last answer, or a thread with nothing to replace', () => {
    expect(() => rewound(thread, { kind: 'answer', messageId: 'a1' })).to.throw(OnlyTheLastExchange);
    expect(() => rewound([], { kind: 'answer' })).to.throw(OnlyTheLastExchange, 'Only the last answer can be replaced');
  });

  it('keeps an answer that waits for approvals: its parked calls would be orphaned', () => {
    const parked = answer('a2', [{ type: 'tool-notes_add', toolCallId: 'c1', state: 'approval-requested', approval: { id: 'apr_1' } }]);
    expect(() => rewound([user('u1'), parked], { kind: 'answer' })).to.throw(AnswerAwaitsApprovals);
    expect(() => rewound([user('u1'), parked], { kind: 'message' })).to.throw(AnswerAwaitsApprovals);
  });
});
