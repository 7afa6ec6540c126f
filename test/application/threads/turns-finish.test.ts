import { expect } from 'chai';
import type { UiMessage } from '../../../domain/threads/ui-message.js';
import { NO_ANSWER_KEPT } from '../../../domain/threads/sent-message.js';
import { DIED_MID_TURN } from '../../../application/threads/turn-mirrors.js';
import { ManualClock } from '../../support/manual-clock.js';
import { ada } from '../../support/guard-harness.js';
import { until } from '../../support/eventually.js';
import { gatedTool } from '../../support/gated-tool.js';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { collect, turnHarness } from '../../support/turn-harness.js';
import { readUntil, textIn, texts } from '../../support/turn-chunks.js';

const say = (text: string, id = ''): UiMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
/** A turn that waits in a call until the test releases it, then answers `done`; anything else is echoed. */
function waitingTurn() {
  const waiting = gatedTool({ name: 'wait', description: 'waits', risk: 'read' }, { waited: true });
  const model = new RecordingLanguageModel((prompt, call) =>
    lastUserText(prompt) === 'wait for it' && call === 0
      ? { toolCalls: [{ toolName: 'wait', input: {} }] }
      : lastUserText(prompt) === 'wait for it'
        ? { text: 'done at last' }
        : { text: `echo: ${lastUserText(prompt)}` },
  );
  return { waiting, model };
}

describe('Turns finish what they start', () => {
  it('runs a turn whose only client left to its end by default, and keeps the whole answer', async () => {
    const { waiting, model } = waitingTurn();
    const h = turnHarness({ model, tools: [waiting.tool] });
    const { id } = await h.createThread.execute({ principal: ada });
    const mine = await h.start(id, 'wait for it');
    await waiting.started;
    mine.detach();
    const live = h.hub.find(id)!;
    waiting.release();
    await live.whenEnded();
    expect(model.aborted).to.equal(0);
    expect(texts(await h.threads.messagesOf(id))).to.deep.equal(['user:wait for it', 'assistant:done at last']);
  });

  it('with a grace set, counts a reader on another instance, and gives the turn up once that reader leaves too', async () => {
    const model = new RecordingLanguageModel(() => ({ text: 'one two three four five six seven eight nine ten', untilAborted: true }));
    const h = turnHarness({ model, graceMs: 20 });
    const other = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    const mine = await h.start(id, 'go');
    await readUntil(mine, (seen) => textIn(seen).includes('two'));
    const theirs = (await other.rejoin.execute({ principal: ada, threadId: id }))!;
    await readUntil(theirs, (seen) => textIn(seen).includes('two'));
    const turnId = await turnOf(h, id);
    await until(() => h.readers!.anyone(turnId), Boolean, { what: 'the reader elsewhere to be marked' });
    const asked = countCalls(h.readers!, 'anyone');
    mine.detach();
    // The running instance looked elsewhere (more than once, past its grace) and found the reader.
    await until(
      () => asked.count,
      (n) => n >= 3,
      { what: 'the running instance to look for readers' },
    );
    expect(model.aborted, 'a reader elsewhere keeps the turn').to.equal(0);
    const live = h.hub.find(id)!;
    theirs.detach();
    await live.whenEnded();
    expect(model.aborted, 'nobody reads it anywhere: given up').to.equal(1);
    expect(texts(await h.threads.messagesOf(id))[1]!.startsWith('assistant:one two')).to.equal(true);
  });
});

describe('A message is stored once per id the client gave it', () => {
  const echo = () => new RecordingLanguageModel((prompt) => ({ text: `echo: ${lastUserText(prompt)}` }));

  it('answers the same message sent again after its turn with the stored answer, replayed, storing nothing twice', async () => {
    const h = turnHarness({ model: echo() });
    const other = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    const first = await collect(await h.runTurn.execute({ principal: ada, threadId: id, message: say('hello', 'c-1') }));
    const again = await collect(await other.runTurn.execute({ principal: ada, threadId: id, message: say('hello', 'c-1') }));
    expect(textIn(again)).to.equal(textIn(first));
    expect(again[0]).to.deep.equal(first[0]);
    expect(again.at(-1)).to.deep.include({ type: 'finish' });
    expect(texts(await h.threads.messagesOf(id))).to.deep.equal(['user:hello', 'assistant:echo: hello']);
    expect((await h.threads.find(id))!.thread.toPrimitives().messageCount).to.equal(2);
    expect(h.hub.find(id), 'the thread is free').to.equal(null);
    const next = await h.say(id, 'next');
    expect(textIn(next)).to.equal('echo: next');
  });

  it('joins the turn in flight that carries the same message, on another instance', async () => {
    const { waiting, model } = waitingTurn();
    const h = turnHarness({ model, tools: [waiting.tool] });
    const other = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    const mine = await h.runTurn.execute({ principal: ada, threadId: id, message: say('wait for it', 'c-2') });
    await waiting.started;
    const again = await other.runTurn.execute({ principal: ada, threadId: id, message: say('wait for it', 'c-2') });
    waiting.release();
    const [own, joined] = await Promise.all([collect(mine), collect(again)]);
    expect(textIn(joined)).to.equal('done at last');
    expect(textIn(own)).to.equal('done at last');
    expect(texts(await h.threads.messagesOf(id))).to.deep.equal(['user:wait for it', 'assistant:done at last']);
  });

  it('two instances racing with the same message store it once, and both streams carry its answer', async () => {
    const h = turnHarness({ model: echo(), turns: { concurrentTurns: 'enqueue' } });
    const other = h.instance();
    for (let round = 0; round < 5; round++) {
      const { id } = await h.createThread.execute({ principal: ada });
      const racing = await Promise.all(
        [h, other].map((instance) =>
          instance.runTurn.execute({ principal: ada, threadId: id, message: say(`race ${round}`, `r-${round}`) }),
        ),
      );
      const answers = await Promise.all(racing.map(async (stream) => textIn(await collect(stream))));
      expect(answers, `round ${round}`).to.deep.equal([`echo: race ${round}`, `echo: race ${round}`]);
      expect(texts(await h.threads.messagesOf(id)), `round ${round}`).to.deep.equal([
        `user:race ${round}`,
        `assistant:echo: race ${round}`,
      ]);
    }
  });

  it('refuses another message under an id already used (409), and treats messages without an id, or an edit, as new', async () => {
    const h = turnHarness({ model: echo() });
    const { id } = await h.createThread.execute({ principal: ada });
    await collect(await h.runTurn.execute({ principal: ada, threadId: id, message: say('first', 'c-3') }));
    const refused = await h.runTurn
      .execute({ principal: ada, threadId: id, message: say('something else', 'c-3') })
      .catch((error: { code: string }) => error.code);
    expect(refused).to.equal('conflict');
    await h.say(id, 'plain');
    await h.say(id, 'plain');
    const edited = await collect(
      await h.runTurn.execute({ principal: ada, threadId: id, message: say('plain, edited', 'c-4'), rewind: { kind: 'message' } }),
    );
    expect(textIn(edited)).to.equal('echo: plain, edited');
    expect(texts(await h.threads.messagesOf(id))).to.deep.equal([
      'user:first',
      'assistant:echo: first',
      'user:plain',
      'assistant:echo: plain',
      'user:plain, edited',
      'assistant:echo: plain, edited',
    ]);
  });

  it('a retry of a message whose turn lost its instance replays what was kept, closed by an error part, and frees the thread', async () => {
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const h = turnHarness({ model: echo(), clock, turns: { leaseMs: 1_000 } });
    const { id } = await h.createThread.execute({ principal: ada });
    // What an instance that died mid-turn left: the lease (carrying the message), the message, a checkpoint.
    const loaded = (await h.threads.find(id))!;
    await h.threads.swap(loaded, loaded.thread.startTurn('trn_deadinstance02', clock.now().toISOString(), 1_000, undefined, 'c-9'));
    await h.threads.putMessage(id, { ...say('go'), id: 'msg_user0000009' }, 'c-9');
    clock.advance(1);
    await h.threads.putMessage(id, { id: 'msg_answer00009', role: 'assistant', parts: [{ type: 'text', text: 'one two', state: 'done' }] });
    clock.advance(1_000);
    const again = await collect(await h.runTurn.execute({ principal: ada, threadId: id, message: say('go', 'c-9') }));
    expect(textIn(again)).to.equal('one two');
    expect(again.slice(-2)).to.deep.equal([
      { type: 'error', errorText: DIED_MID_TURN },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(texts(await h.threads.messagesOf(id))).to.deep.equal(['user:go', 'assistant:one two']);
    expect((await h.threads.find(id))!.thread.toPrimitives().messageCount, 'counted again').to.equal(2);
    expect(textIn(await h.say(id, 'next')), 'the thread is free').to.equal('echo: next');
  });

  it('says so when the turn that carried the message ended without an answer', async () => {
    const h = turnHarness({ model: echo() });
    const { id } = await h.createThread.execute({ principal: ada });
    // What a turn that stored the message and then lost its answer left behind.
    await h.threads.putMessage(id, { ...say('lost'), id: 'msg_lost000001' }, 'c-5');
    const again = await collect(await h.runTurn.execute({ principal: ada, threadId: id, message: say('lost', 'c-5') }));
    expect(again).to.deep.include({ type: 'error', errorText: NO_ANSWER_KEPT });
    expect(again.at(-1)).to.deep.include({ type: 'finish', finishReason: 'error' });
    expect(texts(await h.threads.messagesOf(id))).to.deep.equal(['user:lost']);
  });
});

function turnOf(h: ReturnType<typeof turnHarness>, threadId: string): Promise<string> {
  return h.threads.find(threadId).then((loaded) => loaded!.thread.toPrimitives().activeTurn!.id);
}

/** Counts calls of `object[method]` from now on. */
function countCalls<T extends object>(object: T, method: keyof T & string): { count: number } {
  const counter = { count: 0 };
  const original = (object[method] as (...args: unknown[]) => unknown).bind(object);
  (object as Record<string, unknown>)[method] = (...args: unknown[]) => {
    counter.count += 1;
    return original(...args);
  };
  return counter;
}
