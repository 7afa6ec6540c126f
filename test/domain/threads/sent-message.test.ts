import { expect } from 'chai';
import { answerTo, IdSentBefore, NO_ANSWER_KEPT, replayOf, sameAsSent, sentIdOf } from '../../../domain/threads/sent-message.js';
import type { UiMessage } from '../../../domain/threads/ui-message.js';

const user = (id: string, text: string): UiMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id: string, text: string): UiMessage => ({ id, role: 'assistant', parts: [{ type: 'text', text, state: 'done' }] });

describe('A message sent again (sent-message rules)', () => {
  it('keys a message by the id the client gave it, unless it has none or replaces the last message', () => {
    expect(sentIdOf(user('c-1', 'hi'), false)).to.equal('c-1');
    expect(sentIdOf(user('', 'hi'), false)).to.equal(null);
    expect(sentIdOf(user('c-1', 'hi'), true), 'an edit keeps the edited message id').to.equal(null);
    expect(sentIdOf(undefined, false)).to.equal(null);
  });

  it('finds the answer right after the message, and none when the next message is the person’s', () => {
    const thread = [user('m1', 'a'), assistant('m2', 'b'), user('m3', 'c'), user('m4', 'd')];
    expect(answerTo(thread, 'm1')?.id).to.equal('m2');
    expect(answerTo(thread, 'm3')).to.equal(null);
    expect(answerTo(thread, 'm4')).to.equal(null);
    expect(answerTo(thread, 'nowhere')).to.equal(null);
  });

  it('takes the same message again as a retry, and another one under its id as a conflict', () => {
    const stored = { ...user('msg_1', 'hello'), id: 'msg_stored' };
    expect(sameAsSent(stored, user('c-1', 'hello'))).to.equal(stored);
    expect(() => sameAsSent(stored, user('c-1', 'something else'))).to.throw(IdSentBefore);
  });

  it('replays a stored answer start to finish, or says no answer was kept', () => {
    expect(replayOf(assistant('m2', 'hello there'))).to.deep.equal([
      { type: 'start', messageId: 'm2' },
      { type: 'text-start', id: 'rebuilt-0' },
      { type: 'text-delta', id: 'rebuilt-0', delta: 'hello there' },
      { type: 'text-end', id: 'rebuilt-0' },
      { type: 'finish' },
    ]);
    expect(replayOf(null)).to.deep.equal([
      { type: 'start' },
      { type: 'error', errorText: NO_ANSWER_KEPT },
      { type: 'finish', finishReason: 'error' },
    ]);
  });
});
