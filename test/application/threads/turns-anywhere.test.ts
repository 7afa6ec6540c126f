import { expect } from 'chai';
import type { UiMessage } from '../../../domain/threads/ui-message.js';
import type { ToolDefinition } from '../../../ports/tool-registry.js';
import { DIED_MID_TURN } from '../../../application/threads/turn-mirrors.js';
import { ada, bob } from '../../support/guard-harness.js';
import { until } from '../../support/eventually.js';
import { gatedTool } from '../../support/gated-tool.js';
import { ManualClock } from '../../support/manual-clock.js';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { collect, turnHarness } from '../../support/turn-harness.js';
import { readUntil, textIn, texts } from '../../support/turn-chunks.js';

const say = (text: string): UiMessage => ({ id: '', role: 'user', parts: [{ type: 'text', text }] });
/** A model that writes `go`'s answer word by word until aborted, and echoes anything else. */
const slowModel = () =>
  new RecordingLanguageModel((prompt) =>
    lastUserText(prompt) === 'go'
      ? { text: 'one two three four five six seven eight nine ten eleven twelve', untilAborted: true }
      : { text: `echo: ${lastUserText(prompt)}` },
  );

describe('Turns across instances (one store, two instances)', () => {
  it('hands a reader on another instance the whole turn from its first chunk, live, and the same answer as its own reader', async () => {
    const model = slowModel();
    const h = turnHarness({ model, turns: { lingerMs: 50 } });
    const other = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    const mine = await h.runTurn.execute({ principal: ada, threadId: id, message: say('go') });
    await readUntil(mine, (seen) => textIn(seen).includes('three'));
    const turnId = (await h.threads.find(id))!.thread.toPrimitives().activeTurn!.id;

    const theirs = await other.rejoin.execute({ principal: ada, threadId: id });
    expect(theirs, 'the turn runs on the first instance only').to.not.equal(null);
    expect(other.hub.find(id)).to.equal(null);
    const replayed = await readUntil(theirs!, (seen) => textIn(seen).includes('six'));
    expect(replayed[0]).to.deep.include({ type: 'start' });
    expect(textIn(replayed).startsWith('one two three')).to.equal(true);
    expect(other.mirrors.size).to.equal(1);

    await h.stop.execute({ principal: ada, threadId: id });
    const [rest, restMine] = await Promise.all([collect(theirs!), collect(mine)]);
    expect(rest.at(-1)).to.deep.include({ type: 'finish' });
    expect(restMine.at(-1)).to.deep.include({ type: 'finish' });
    const stored = texts(await h.threads.messagesOf(id));
    expect(stored[1], 'the reader elsewhere saw the answer the thread keeps').to.equal(`assistant:${textIn([...replayed, ...rest])}`);
    await until(
      () => other.mirrors.size,
      (n) => n === 0,
      { what: 'the follower to stop' },
    );
    expect(await other.rejoin.execute({ principal: ada, threadId: id }), 'nothing in flight any more').to.equal(null);
    await until(
      () => h.feeds.chunks.read(turnId, 0),
      (left) => left.length === 0,
      { what: "the turn's chunks to be dropped" },
    );
    expect(await h.rejoin.execute({ principal: bob, threadId: id }).catch((error: { code: string }) => error.code)).to.equal('not-found');
  });

  it('rebuilds what a continuing turn carries on from, for a reader on another instance', async () => {
    const waiting = gatedTool({ name: 'wait', description: 'waits', risk: 'write' }, { waited: true });
    const model = new RecordingLanguageModel((prompt, call) =>
      call === 0 ? { toolCalls: [{ toolName: 'wait', input: {} }] } : { text: `after ${lastUserText(prompt)}` },
    );
    const h = turnHarness({ model, tools: [waiting.tool] });
    const other = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, 'please wait');
    const [pending] = (await h.list.execute({ principal: ada })).approvals;
    await h.decide.execute({ principal: ada, approvalId: pending!.id, approve: true });
    const carrying = await h.runTurn.execute({ principal: ada, threadId: id });
    const theirs = await other.rejoin.execute({ principal: ada, threadId: id });
    waiting.release();
    const [replayed, own] = await Promise.all([collect(theirs!), collect(carrying)]);
    expect(replayed[0]).to.deep.include({ type: 'start' });
    expect(replayed[1], 'the answer it continues comes right after start').to.deep.include({ type: 'start-step' });
    expect(replayed.filter((c) => c.type === 'tool-input-available')).to.have.length(1);
    expect(replayed.some((c) => c.type === 'tool-output-available')).to.equal(true);
    expect(textIn(replayed)).to.equal(textIn(own));
  });

  it('stops a turn from another instance: the step is cut, the partial answer saved, and the thread takes the next turn there', async () => {
    const model = slowModel();
    const h = turnHarness({ model });
    const other = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    const mine = await h.runTurn.execute({ principal: ada, threadId: id, message: say('go') });
    const before = await readUntil(mine, (seen) => textIn(seen).includes('four'));
    expect(await other.stop.execute({ principal: bob, threadId: id }).catch((error: { code: string }) => error.code)).to.equal('not-found');

    expect(await other.stop.execute({ principal: ada, threadId: id })).to.deep.equal({ stopped: true });
    expect(model.aborted, "the model's step was cut").to.equal(1);
    const after = await collect(mine);
    expect(after.slice(-2)).to.deep.equal([
      { type: 'abort', reason: 'stopped' },
      { type: 'finish', finishReason: 'other' },
    ]);
    const stored = await h.getThread.execute({ principal: ada, threadId: id });
    const saved = texts(stored.messages);
    expect(saved[0]).to.equal('user:go');
    expect(saved[1]).to.equal(`assistant:${textIn([...before, ...after])}`);
    expect(saved[1]!.length).to.be.lessThan('assistant:one two three four five six seven eight nine ten eleven twelve'.length);

    expect(await other.stop.execute({ principal: ada, threadId: id }), 'stopping again is harmless').to.deep.equal({ stopped: false });
    const next = await other.say(id, 'next');
    expect(textIn(next)).to.equal('echo: next');
  });

  it('lets a call under way finish when the turn is stopped, starts nothing after it, and leaves its parked approvals to decide', async () => {
    const slowRead = gatedTool({ name: 'slow_read', description: 'reads slowly', risk: 'read' }, { read: 'all of it' });
    const write: ToolDefinition = {
      name: 'notes_add',
      description: 'adds',
      inputSchema: { type: 'object' },
      risk: 'write',
      execute: async () => ({ added: true }),
    };
    const model = new RecordingLanguageModel((_prompt, call) =>
      call === 0
        ? {
            toolCalls: [
              { toolName: 'notes_add', input: { text: 'milk' } },
              { toolName: 'slow_read', input: {} },
              { toolName: 'slow_read', input: { again: true } },
            ],
          }
        : { text: 'never said' },
    );
    const h = turnHarness({ model, tools: [slowRead.tool, write] });
    const other = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    const mine = await h.runTurn.execute({ principal: ada, threadId: id, message: say('do three things') });
    await slowRead.started;
    const stopping = other.stop.execute({ principal: ada, threadId: id });
    await until(
      async () => (await h.threads.find(id))!.thread.stopRequested((await h.threads.find(id))!.thread.toPrimitives().activeTurn!.id),
      Boolean,
      { what: 'the stop to be asked' },
    );
    slowRead.release();
    expect(await stopping).to.deep.equal({ stopped: true });
    const chunks = await collect(mine);
    const outputs = chunks.filter((c) => c.type === 'tool-output-available') as Array<{ output: unknown }>;
    expect(
      outputs.map((c) => c.output),
      'the call under way finished',
    ).to.deep.equal([{ read: 'all of it' }]);
    expect(
      chunks.filter((c) => c.type === 'tool-input-available'),
      'the third call never started',
    ).to.have.length(2);
    expect(model.calls, 'no step after the stop').to.have.length(1);
    const [parked] = (await h.list.execute({ principal: ada })).approvals;
    expect(parked?.request?.tool).to.equal('notes_add');
    const decided = await h.decide.execute({ principal: ada, approvalId: parked!.id, approve: true });
    expect(decided.state).to.equal('approved');
  });

  it('checkpoints the answer as it streams, so the thread holds it while the turn still runs', async () => {
    const h = turnHarness({ model: slowModel(), settings: { checkpointMs: 30 } });
    const { id } = await h.createThread.execute({ principal: ada });
    const mine = await h.runTurn.execute({ principal: ada, threadId: id, message: say('go') });
    await readUntil(mine, (seen) => textIn(seen).includes('five'));
    const stored = await until(
      () => h.threads.messagesOf(id),
      (messages) => messages.length === 2 && texts(messages)[1]!.includes('four'),
      { what: 'a checkpoint' },
    );
    expect(texts(stored)[1]!.startsWith('assistant:one two three four')).to.equal(true);
    await h.stop.execute({ principal: ada, threadId: id });
  });

  it("ends a reader's stream with an error part when the turn's instance died, and lets the thread take a new turn", async () => {
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const h = turnHarness({ model: slowModel(), clock, turns: { leaseMs: 1_000 } });
    const { id } = await h.createThread.execute({ principal: ada });
    // What an instance that died mid-turn left: the lease, the person's message, a checkpoint, some chunks.
    const loaded = (await h.threads.find(id))!;
    await h.threads.swap(loaded, loaded.thread.startTurn('trn_deadinstance01', clock.now().toISOString(), 1_000));
    await h.threads.putMessage(id, { id: 'msg_user0000001', role: 'user', parts: [{ type: 'text', text: 'go' }] });
    clock.advance(1);
    await h.threads.putMessage(id, { id: 'msg_answer00001', role: 'assistant', parts: [{ type: 'text', text: 'one two', state: 'done' }] });
    await h.feeds.chunks.append('trn_deadinstance01', 0, [
      { type: 'start', messageId: 'msg_answer00001' },
      { type: 'start-step' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'one two' },
    ]);

    const reader = await h.rejoin.execute({ principal: ada, threadId: id });
    const seen = await readUntil(reader!, (chunks) => textIn(chunks) === 'one two');
    expect(
      await h.runTurn.execute({ principal: ada, threadId: id, message: say('again') }).catch((error: { code: string }) => error.code),
    ).to.equal('conflict');
    clock.advance(1_000);
    const rest = await collect(reader!);
    expect(rest).to.deep.equal([
      { type: 'error', errorText: DIED_MID_TURN },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(seen[0]).to.deep.include({ type: 'start' });

    const next = await h.say(id, 'again');
    expect(textIn(next)).to.equal('echo: again');
    expect(texts(await h.threads.messagesOf(id))).to.deep.equal(['user:go', 'assistant:one two', 'user:again', 'assistant:echo: again']);
    expect((await h.threads.find(id))!.thread.toPrimitives().messageCount, 'counted again').to.equal(4);
    expect(await h.feeds.chunks.read('trn_deadinstance01', 0), "the dead turn's chunks are dropped").to.deep.equal([]);
  });
});

describe('concurrentTurns: a second message while a turn runs', () => {
  it('reject: answers 409 on any instance, and the running turn goes on', async () => {
    const h = turnHarness({ model: slowModel() });
    const other = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    const mine = await h.runTurn.execute({ principal: ada, threadId: id, message: say('go') });
    await readUntil(mine, (seen) => textIn(seen).includes('two'));
    expect(
      await other.runTurn.execute({ principal: ada, threadId: id, message: say('b') }).catch((error: { code: string }) => error.code),
    ).to.equal('conflict');
    await readUntil(mine, (seen) => textIn(seen).includes('four'));
    await h.stop.execute({ principal: ada, threadId: id });
  });

  it('enqueue: the second message, sent on another instance, waits for the turn to end and then runs; a third waits behind it', async () => {
    const model = new RecordingLanguageModel((prompt) =>
      lastUserText(prompt) === 'first' ? { text: 'a slow first answer', untilAborted: true } : { text: `echo: ${lastUserText(prompt)}` },
    );
    const h = turnHarness({ model, turns: { concurrentTurns: 'enqueue' } });
    const other = h.instance();
    const third = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    const first = await h.runTurn.execute({ principal: ada, threadId: id, message: say('first') });
    await readUntil(first, (seen) => textIn(seen).includes('slow'));
    const second = await other.runTurn.execute({ principal: ada, threadId: id, message: say('second') });
    await until(
      async () => (await h.threads.find(id))!.thread.inLine(h.clock.now().toISOString()).length,
      (n) => n === 1,
      {
        what: 'the second to take its place',
      },
    );
    const thirdTurn = await third.runTurn.execute({ principal: ada, threadId: id, message: say('third') });
    await until(
      async () => (await h.threads.find(id))!.thread.inLine(h.clock.now().toISOString()).length,
      (n) => n === 2,
      {
        what: 'the third to queue behind it',
      },
    );
    expect(await h.threads.messagesOf(id), 'nothing of the waiting messages is stored yet').to.have.length(1);

    await h.stop.execute({ principal: ada, threadId: id });
    const [firstRest, secondAll, thirdAll] = await Promise.all([collect(first), collect(second), collect(thirdTurn)]);
    expect(firstRest.at(-1)).to.deep.include({ type: 'finish' });
    expect(textIn(secondAll)).to.equal('echo: second');
    expect(textIn(thirdAll)).to.equal('echo: third');
    const stored = texts(await h.threads.messagesOf(id));
    expect(stored.slice(2)).to.deep.equal(['user:second', 'assistant:echo: second', 'user:third', 'assistant:echo: third']);
    expect((await h.threads.find(id))!.thread.inLine(h.clock.now().toISOString())).to.deep.equal([]);
  });

  it('enqueue: a waiting reader who leaves gives its place up, and the message is never run', async () => {
    const h = turnHarness({ model: slowModel(), turns: { concurrentTurns: 'enqueue' } });
    const { id } = await h.createThread.execute({ principal: ada });
    const first = await h.runTurn.execute({ principal: ada, threadId: id, message: say('go') });
    await readUntil(first, (seen) => textIn(seen).includes('two'));
    const second = await h.runTurn.execute({ principal: ada, threadId: id, message: say('never mind') });
    const reading = collect(second);
    await until(
      async () => (await h.threads.find(id))!.thread.inLine(h.clock.now().toISOString()).length,
      (n) => n === 1,
      {
        what: 'the place in line',
      },
    );
    second.detach();
    expect(await reading).to.deep.equal([]);
    await until(
      async () => (await h.threads.find(id))!.thread.inLine(h.clock.now().toISOString()).length,
      (n) => n === 0,
      {
        what: 'the place to be given up',
      },
    );
    await h.stop.execute({ principal: ada, threadId: id });
    expect(texts(await h.threads.messagesOf(id)).map((t) => t.split(':')[0])).to.deep.equal(['user', 'assistant']);
  });

  it('interrupt: the running turn, on another instance, is stopped with its partial answer saved, and the new message runs next', async () => {
    const model = slowModel();
    const h = turnHarness({ model, turns: { concurrentTurns: 'interrupt' } });
    const other = h.instance();
    const { id } = await h.createThread.execute({ principal: ada });
    const first = await h.runTurn.execute({ principal: ada, threadId: id, message: say('go') });
    await readUntil(first, (seen) => textIn(seen).includes('three'));
    const second = await other.runTurn.execute({ principal: ada, threadId: id, message: say('actually, stop') });
    const [firstRest, secondAll] = await Promise.all([collect(first), collect(second)]);
    expect(firstRest.slice(-2)).to.deep.equal([
      { type: 'abort', reason: 'stopped' },
      { type: 'finish', finishReason: 'other' },
    ]);
    expect(textIn(secondAll)).to.equal('echo: actually, stop');
    const stored = texts(await h.threads.messagesOf(id));
    expect(stored[0]).to.equal('user:go');
    expect(stored[1]!.startsWith('assistant:one two three')).to.equal(true);
    expect(stored.slice(2)).to.deep.equal(['user:actually, stop', 'assistant:echo: actually, stop']);
  });
});
