import { expect } from 'chai';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { collect, turnHarness } from '../../support/turn-harness.js';
import { ada } from '../../support/guard-harness.js';
import type { UiMessage } from '../../../domain/threads/ui-message.js';

const echo = () => new RecordingLanguageModel((prompt) => ({ text: `echo: ${lastUserText(prompt)}` }));
const said = (id: string, text: string): UiMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const texts = (messages: ReadonlyArray<UiMessage>) =>
  messages.map((m) => m.parts.map((p) => (p.type === 'text' ? (p as { text: string }).text : '')).join(''));

describe('Editing any message the person sent', () => {
  it('rewinds the thread to the edited message, named by the stored id or by the id the client sent it under', async () => {
    const h = turnHarness({ model: echo() });
    const { id: threadId } = await h.createThread.execute({ principal: ada });
    const turn = async (message: UiMessage, rewind?: { kind: 'message'; messageId: string }) =>
      collect(await h.runTurn.execute({ principal: ada, threadId, message, ...(rewind ? { rewind } : {}) }));
    for (const [id, text] of [
      ['c1', 'one'],
      ['c2', 'two'],
      ['c3', 'three'],
    ] as const)
      await turn(said(id, text));
    const stored = async () => (await h.getThread.execute({ principal: ada, threadId })).messages;

    // The client knows its second message by its own id: the thread goes back to it.
    await turn(said('c2', 'TWO'), { kind: 'message', messageId: 'c2' });
    expect(texts(await stored())).to.deep.equal(['one', 'echo: one', 'TWO', 'echo: TWO']);

    // Edited again under the same client id, then the first message by its stored id.
    await turn(said('c4', 'three'));
    await turn(said('c2', 'Two'), { kind: 'message', messageId: 'c2' });
    expect(texts(await stored())).to.deep.equal(['one', 'echo: one', 'Two', 'echo: Two']);
    const first = (await stored())[0]!;
    await turn(said(first.id, 'uno'), { kind: 'message', messageId: first.id });
    expect(texts(await stored())).to.deep.equal(['uno', 'echo: uno']);

    // An answer is not the person's to edit.
    const answer = (await stored())[1]!;
    const refused = await h.runTurn
      .execute({ principal: ada, threadId, message: said('c9', 'x'), rewind: { kind: 'message', messageId: answer.id } })
      .then(collect)
      .then(
        () => null,
        (error: Error) => error.message,
      );
    expect(refused).to.equal('Only a message you sent can be edited');
    expect(texts(await stored())).to.deep.equal(['uno', 'echo: uno']);
  });
});
