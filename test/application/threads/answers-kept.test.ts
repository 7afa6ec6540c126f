import { expect } from 'chai';
import type { UiChunk } from '../../../domain/threads/ui-chunk.js';
import { unsavedAnswerText } from '../../../domain/threads/answer-saving.js';
import { ada } from '../../support/guard-harness.js';
import { until } from '../../support/eventually.js';
import { FlakyMessages } from '../../support/flaky-messages.js';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { turnHarness } from '../../support/turn-harness.js';
import { texts } from '../../support/turn-chunks.js';

const kinds = (chunks: ReadonlyArray<UiChunk>) => chunks.map((chunk) => chunk.type);

function onFlakyStore(saving: Parameters<typeof turnHarness>[0]['answerSaving'] = {}) {
  const flaky = new FlakyMessages();
  const model = new RecordingLanguageModel((prompt) => ({ text: `echo: ${lastUserText(prompt)}` }));
  const h = turnHarness({
    model,
    messages: (records) => flaky.wrap(records),
    answerSaving: { firstDelayMs: 10, maxDelayMs: 40, ...saving },
  });
  return { flaky, h };
}

describe('An answer shown is an answer kept', () => {
  it('saves the answer once the store takes writes again, and only then ends the stream with finish', async () => {
    const { flaky, h } = onFlakyStore();
    const { id } = await h.createThread.execute({ principal: ada });
    flaky.failing = 4;
    const chunks = await h.say(id, 'hello');
    expect(flaky.attempts).to.equal(4);
    expect(kinds(chunks)).to.not.include('error');
    expect(chunks.at(-1)).to.deep.equal({ type: 'finish', finishReason: 'stop' });
    expect(texts(await h.threads.messagesOf(id))).to.deep.equal(['user:hello', 'assistant:echo: hello']);
    expect((await h.getThread.execute({ principal: ada, threadId: id })).messages).to.have.length(2);
  });

  it('ends the stream with an error part saying why when the store stays away, and saves the answer when it returns', async () => {
    const { flaky, h } = onFlakyStore({ streamWaitMs: 200 });
    const { id } = await h.createThread.execute({ principal: ada });
    flaky.failing = Infinity;
    const chunks = await h.say(id, 'are you there?');
    expect(chunks.at(-2)).to.deep.equal({ type: 'error', errorText: unsavedAnswerText(true) });
    expect(chunks.at(-1)).to.deep.equal({ type: 'finish', finishReason: 'error' });
    expect(
      chunks.filter((chunk) => chunk.type === 'finish'),
      'nothing says it finished well',
    ).to.have.length(1);
    expect(texts(await h.threads.messagesOf(id))).to.deep.equal(['user:are you there?']);

    flaky.failing = 0;
    const stored = await until(
      () => h.threads.messagesOf(id),
      (messages) => messages.length === 2,
      { what: 'the kept answer to be saved' },
    );
    expect(texts(stored)).to.deep.equal(['user:are you there?', 'assistant:echo: are you there?']);
  });

  it('keeps a bounded number of answers: past it the oldest is given up, and the newest is still saved', async () => {
    const { flaky, h } = onFlakyStore({ streamWaitMs: 50, maxKept: 1 });
    const first = (await h.createThread.execute({ principal: ada })).id;
    const second = (await h.createThread.execute({ principal: ada })).id;
    flaky.failing = Infinity;
    expect((await h.say(first, 'one')).at(-2)).to.deep.include({ type: 'error' });
    expect((await h.say(second, 'two')).at(-2)).to.deep.include({ type: 'error' });
    flaky.failing = 0;
    await until(
      () => h.threads.messagesOf(second),
      (messages) => messages.length === 2,
      { what: 'the newest kept answer to be saved' },
    );
    expect(texts(await h.threads.messagesOf(first))).to.deep.equal(['user:one']);
  });
});
