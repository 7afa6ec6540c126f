import { expect } from 'chai';
import { Conflict, InvalidInput, NotFound } from '../../../domain/errors.js';
import type { UiMessage } from '../../../domain/threads/ui-message.js';
import type { Store } from '../../../ports/store.js';
import { ada, bob } from '../../support/guard-harness.js';
import { gatedTool } from '../../support/gated-tool.js';
import { ManualClock } from '../../support/manual-clock.js';
import { storeKinds } from '../../support/paired-stores.js';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { collect, turnHarness } from '../../support/turn-harness.js';

const said = (id: string, text: string): UiMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const texts = (messages: ReadonlyArray<UiMessage>) =>
  messages.map((m) => m.parts.map((p) => (p.type === 'text' ? (p as { text: string }).text : '')).join(''));

/** Each answer says which call of the model wrote it, so a regenerated answer differs; "wait" waits in a call. */
function versionedHarness(store: Store, clock: ManualClock) {
  const waiting = gatedTool({ name: 'wait', description: 'waits', risk: 'read' }, { waited: true });
  let answers = 0;
  const model = new RecordingLanguageModel((prompt) =>
    lastUserText(prompt) === 'wait' && prompt.at(-1)?.role !== 'tool'
      ? { toolCalls: [{ toolName: 'wait', input: {} }] }
      : { text: `${lastUserText(prompt)}: answer ${++answers}` },
  );
  return { h: turnHarness({ model, tools: [waiting.tool], store, clock }), waiting };
}

describe('Versions kept by regenerate and edit', function () {
  this.timeout(30_000);
  for (const on of storeKinds('porter-versions-')) {
    describe(`on ${on.name}`, () => {
      let store: Store | null = null;
      let harness: ReturnType<typeof versionedHarness>;
      beforeEach(async function () {
        const clock = new ManualClock('2026-06-01T12:00:00.000Z');
        store = await on.open(clock);
        if (!store) return this.skip();
        harness = versionedHarness(store, clock);
      });
      afterEach(async () => {
        await store?.close();
      });

      it('keeps every regenerated answer: three versions, the first shown again, and a reload shows it still', async () => {
        const { h } = harness;
        const { id: threadId } = await h.createThread.execute({ principal: ada });
        await collect(await h.runTurn.execute({ principal: ada, threadId, message: said('c1', 'hello') }));
        const regenerate = async () => collect(await h.runTurn.execute({ principal: ada, threadId, rewind: { kind: 'answer' } }));
        await regenerate();
        await regenerate();
        const now = await h.getThread.execute({ principal: ada, threadId });
        expect(texts(now.messages)).to.deep.equal(['hello', 'hello: answer 3']);
        const answer = now.messages[1]!.id;
        expect(now.versions).to.deep.equal([{ messageId: answer, index: 2, count: 3 }]);

        const first = await h.showVersion.execute({ principal: ada, threadId, messageId: answer, index: 0 });
        expect(texts(first.messages)).to.deep.equal(['hello', 'hello: answer 1']);
        expect(first.versions).to.deep.equal([{ messageId: first.messages[1]!.id, index: 0, count: 3 }]);

        const reloaded = await h.getThread.execute({ principal: ada, threadId });
        expect(texts(reloaded.messages)).to.deep.equal(['hello', 'hello: answer 1']);
        expect(reloaded.versions).to.deep.equal(first.versions);
        // Only the version shown is searched.
        const found = await h.searchThreads.execute({ principal: ada, q: 'answer' });
        expect(found.threads.map((t) => t.match.snippet).join(' '))
          .to.contain('answer 1')
          .and.not.contain('answer 3');

        // The conversation goes on from the version shown; the second version comes back as it was.
        await collect(await h.runTurn.execute({ principal: ada, threadId, message: said('c2', 'more') }));
        const second = await h.showVersion.execute({ principal: ada, threadId, messageId: reloaded.messages[1]!.id, index: 1 });
        expect(texts(second.messages)).to.deep.equal(['hello', 'hello: answer 2']);
        const back = await h.showVersion.execute({ principal: ada, threadId, messageId: second.messages[1]!.id, index: 0 });
        expect(texts(back.messages)).to.deep.equal(['hello', 'hello: answer 1', 'more', 'more: answer 4']);
      });

      it('keeps the message an edit replaced, with what followed it, as the first of two versions', async () => {
        const { h } = harness;
        const { id: threadId } = await h.createThread.execute({ principal: ada });
        await collect(await h.runTurn.execute({ principal: ada, threadId, message: said('c1', 'one') }));
        await collect(await h.runTurn.execute({ principal: ada, threadId, message: said('c2', 'two') }));
        await collect(
          await h.runTurn.execute({ principal: ada, threadId, message: said('c2', 'TWO'), rewind: { kind: 'message', messageId: 'c2' } }),
        );
        const edited = await h.getThread.execute({ principal: ada, threadId });
        expect(texts(edited.messages)).to.deep.equal(['one', 'one: answer 1', 'TWO', 'TWO: answer 3']);
        expect(edited.versions).to.deep.equal([{ messageId: edited.messages[2]!.id, index: 1, count: 2 }]);

        // Named by the id the client sent it under, as a page that has not reloaded knows it.
        const before = await h.showVersion.execute({ principal: ada, threadId, messageId: 'c2', index: 0 });
        expect(texts(before.messages)).to.deep.equal(['one', 'one: answer 1', 'two', 'two: answer 2']);
        expect(before.versions).to.deep.equal([{ messageId: before.messages[2]!.id, index: 0, count: 2 }]);
        expect((await h.threads.find(threadId))!.thread.toPrimitives().messageCount).to.equal(4);
      });

      it('is 404 to anyone else, 404 for a message with no other version, and 400 for a version that is not there', async () => {
        const { h } = harness;
        const { id: threadId } = await h.createThread.execute({ principal: ada });
        await collect(await h.runTurn.execute({ principal: ada, threadId, message: said('c1', 'hello') }));
        await collect(await h.runTurn.execute({ principal: ada, threadId, rewind: { kind: 'answer' } }));
        const { messages } = await h.getThread.execute({ principal: ada, threadId });
        const answer = messages[1]!.id;
        const refused = (messageId: string, index: number, who = ada) =>
          h.showVersion.execute({ principal: who, threadId, messageId, index }).then(
            () => null,
            (error: unknown) => error,
          );
        expect(await refused(answer, 0, bob)).to.be.instanceOf(NotFound);
        expect(await refused(messages[0]!.id, 0)).to.be.instanceOf(NotFound);
        expect(await refused(answer, 2)).to.be.instanceOf(InvalidInput);
        expect(texts((await h.getThread.execute({ principal: ada, threadId })).messages)).to.deep.equal(['hello', 'hello: answer 2']);
      });

      it('refuses to switch while a turn is in flight on the thread (409), and switches once it ended', async () => {
        const { h, waiting } = harness;
        const { id: threadId } = await h.createThread.execute({ principal: ada });
        await collect(await h.runTurn.execute({ principal: ada, threadId, message: said('c1', 'hello') }));
        await collect(await h.runTurn.execute({ principal: ada, threadId, rewind: { kind: 'answer' } }));
        const answer = (await h.getThread.execute({ principal: ada, threadId })).messages[1]!.id;
        const running = await h.runTurn.execute({ principal: ada, threadId, message: said('c2', 'wait') });
        await waiting.started;
        const during = await h.showVersion.execute({ principal: ada, threadId, messageId: answer, index: 0 }).then(
          () => null,
          (error: unknown) => error,
        );
        expect(during).to.be.instanceOf(Conflict);
        waiting.release();
        await collect(running);
        const after = await h.showVersion.execute({ principal: ada, threadId, messageId: answer, index: 0 });
        expect(texts(after.messages)).to.deep.equal(['hello', 'hello: answer 1']);
      });
    });
  }
});
