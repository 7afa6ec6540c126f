import { expect } from 'chai';
import type { UiMessage } from '../../../domain/threads/ui-message.js';
import { interruptionOf } from '../../../domain/threads/interruption.js';
import { ManualClock } from '../../support/manual-clock.js';
import { until } from '../../support/eventually.js';
import { ada } from '../../support/guard-harness.js';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { collect, turnHarness } from '../../support/turn-harness.js';

const say = (text: string, id = ''): UiMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/** A model that fails mid-answer the first time it is asked, and answers after. */
const failsOnce = () =>
  new RecordingLanguageModel((prompt, call) =>
    call === 0 ? { text: 'half of an', failAfter: true } : { text: `echo: ${lastUserText(prompt)}` },
  );

describe('Interrupted answers are marked in the stored thread', () => {
  it('marks the answer a failing model could not finish, says so at the end of the stream, and Retry clears it', async () => {
    const h = turnHarness({ model: failsOnce() });
    const { id } = await h.createThread.execute({ principal: ada });
    const chunks = await h.say(id, 'hi');
    expect(chunks.at(-1)).to.deep.equal({
      type: 'finish',
      finishReason: 'error',
      messageMetadata: { interrupted: { reason: 'model-failed', message: 'The model failed before finishing this answer.' } },
    });
    const stored = (await h.getThread.execute({ principal: ada, threadId: id })).messages;
    expect(stored.map((message) => interruptionOf(message)?.reason ?? null)).to.deep.equal([null, 'model-failed']);

    // Retry: the AI SDK's regenerate replaces the answer; the new one finished and carries no mark.
    const again = await collect(await h.runTurn.execute({ principal: ada, threadId: id, rewind: { kind: 'answer' } }));
    expect(again.at(-1)).to.deep.equal({ type: 'finish', finishReason: 'stop' });
    const after = (await h.getThread.execute({ principal: ada, threadId: id })).messages;
    expect(after).to.have.length(2);
    expect(after.map((message) => interruptionOf(message))).to.deep.equal([null, null]);
    expect(after[1]!.metadata).to.equal(undefined);
  });

  it('marks nothing a person stopped', async () => {
    const model = new RecordingLanguageModel(() => ({ text: 'a long answer still being written', untilAborted: true }));
    const h = turnHarness({ model });
    const { id } = await h.createThread.execute({ principal: ada });
    const stream = await h.start(id, 'go');
    const iterator = stream.chunks[Symbol.asyncIterator]();
    while (((await iterator.next()).value as { type: string }).type !== 'text-delta');
    await h.stop.execute({ principal: ada, threadId: id });
    for (;;) if ((await iterator.next()).done) break;
    const stored = (await h.getThread.execute({ principal: ada, threadId: id })).messages;
    expect(stored.map((message) => interruptionOf(message))).to.deep.equal([null, null]);
  });

  it('saves checkpoints marked as cut short, shown unmarked while the turn lives and marked once its instance is gone', async () => {
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const model = new RecordingLanguageModel(() => ({ text: 'one two three four five six', untilAborted: true }));
    const h = turnHarness({ model, clock, turns: { leaseMs: 1_000 }, settings: { checkpointMs: 1 } });
    const { id } = await h.createThread.execute({ principal: ada });
    const stream = await h.start(id, 'go');
    const iterator = stream.chunks[Symbol.asyncIterator]();
    while (((await iterator.next()).value as { type: string }).type !== 'text-delta');
    // A checkpoint lands in the store, marked: were the instance to die now, this is what stays.
    await until(
      () => h.threads.messagesOf(id),
      ([, draft]) => draft !== undefined && interruptionOf(draft)?.reason === 'instance-stopped',
      { what: 'a marked checkpoint' },
    );
    const live = (await h.getThread.execute({ principal: ada, threadId: id })).messages;
    expect(interruptionOf(live[1]), 'a reader of the live turn sees no mark').to.equal(null);
    // The instance is gone (its turn's hold lapses; the hub here still runs it, so it is stopped after).
    clock.advance(1_001);
    const abandoned = (await h.getThread.execute({ principal: ada, threadId: id })).messages;
    expect(interruptionOf(abandoned[1])?.reason).to.equal('instance-stopped');
    stream.detach();
    await h.stop.execute({ principal: ada, threadId: id }).catch(() => undefined);
  });

  it("marks the person's message a dead instance's turn left without an answer; a new message keeps the mark, Retry clears it", async () => {
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const h = turnHarness({
      model: new RecordingLanguageModel((prompt) => ({ text: `echo: ${lastUserText(prompt)}` })),
      clock,
      turns: { leaseMs: 1_000 },
    });
    // What an instance that died before its first checkpoint left: the lease and the person's message.
    const left = async () => {
      const { id } = await h.createThread.execute({ principal: ada });
      const loaded = (await h.threads.find(id))!;
      await h.threads.swap(loaded, loaded.thread.startTurn(`trn_dead${id}`, clock.now().toISOString(), 1_000, undefined, `c-${id}`));
      await h.threads.putMessage(id, { ...say('lost'), id: `msg_lost${id}` }, `c-${id}`);
      clock.advance(1_001);
      return id;
    };
    const read = async (threadId: string) => (await h.getThread.execute({ principal: ada, threadId })).messages;

    const retried = await left();
    expect(interruptionOf((await read(retried))[0])?.reason, 'a reader sees it at once').to.equal('instance-stopped');
    await collect(await h.runTurn.execute({ principal: ada, threadId: retried, rewind: { kind: 'answer' } }));
    const answered = await read(retried);
    expect(answered.map((message) => [message.role, interruptionOf(message)])).to.deep.equal([
      ['user', null],
      ['assistant', null],
    ]);
    expect(await h.threads.sentMessage(retried, `c-${retried}`), 'the message keeps the id the client sent it under').to.not.equal(null);

    const movedOn = await left();
    await h.say(movedOn, 'something else');
    const later = await read(movedOn);
    expect(later.map((message) => interruptionOf(message)?.reason ?? null)).to.deep.equal(['instance-stopped', null, null]);
  });
});
