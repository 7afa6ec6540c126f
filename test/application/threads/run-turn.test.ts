import { expect } from 'chai';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { collect, turnHarness } from '../../support/turn-harness.js';
import { ada } from '../../support/guard-harness.js';
import { gatedTool } from '../../support/gated-tool.js';
import type { ToolDefinition } from '../../../ports/tool-registry.js';
import type { TurnStream } from '../../../ports/use-cases/threads.js';
import { z } from 'zod';
import { defineTool } from '../../../application/tools/define-tool.js';

const echo = () => new RecordingLanguageModel((prompt) => ({ text: `echo: ${lastUserText(prompt)}` }));
const texts = (prompt: LanguageModelV4Prompt) =>
  prompt.flatMap((m) =>
    m.role === 'user' || m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'text' ? [`${m.role}:${p.text}`] : [])) : [],
  );

const bigTool: ToolDefinition = {
  name: 'big_report',
  description: 'returns a long report',
  inputSchema: { type: 'object' },
  risk: 'read',
  execute: async () => ({ report: 'x'.repeat(50_000) }),
};

/** Runs a turn that calls `big_report` under `toolOutputCap`; `seen` is the result as the model's next step got it. */
async function bigReportSeen(toolOutputCap: number) {
  const model = new RecordingLanguageModel((_prompt, call) =>
    call === 0 ? { toolCalls: [{ toolName: 'big_report', input: {} }] } : { text: 'done' },
  );
  const h = turnHarness({ model, tools: [bigTool], settings: { toolOutputCap } });
  const { id } = await h.createThread.execute({ principal: ada });
  await h.say(id, 'report please');
  const [result] = model.prompts[1]!.flatMap((m) => (m.role === 'tool' ? m.content : [])) as unknown as Array<{
    output: { value: unknown };
  }>;
  return { h, id, seen: result!.output.value };
}

/** Starts a turn whose model writes `answer` until aborted; its only client reads up to `readUntil` and goes away. */
async function leftTurn(options: { answer: string; graceMs: number; readUntil: string }) {
  const model = new RecordingLanguageModel(() => ({ text: options.answer, untilAborted: true }));
  const h = turnHarness({ model, graceMs: options.graceMs });
  const { id } = await h.createThread.execute({ principal: ada });
  const stream = await h.start(id, 'go');
  await readUntilText(stream, options.readUntil);
  stream.detach();
  return { model, h, id };
}

describe('RunTurn', () => {
  it('re-sends only the last N whole messages when a history window is set', async () => {
    const model = echo();
    const h = turnHarness({ model, settings: { historyWindow: 3 } });
    const { id } = await h.createThread.execute({ principal: ada });
    for (const word of ['one', 'two', 'three']) await h.say(id, word);
    expect(texts(model.prompts[2]!)).to.deep.equal(['user:two', 'assistant:echo: two', 'user:three']);
    const window2 = echo();
    const h2 = turnHarness({ model: window2, settings: { historyWindow: 2 } });
    const t2 = (await h2.createThread.execute({ principal: ada })).id;
    for (const word of ['one', 'two', 'three']) await h2.say(t2, word);
    expect(texts(window2.prompts[2]!)).to.deep.equal(['assistant:echo: two', 'user:three']);
  });

  it('re-sends everything without a window', async () => {
    const model = echo();
    const h = turnHarness({ model });
    const { id } = await h.createThread.execute({ principal: ada });
    for (const word of ['one', 'two', 'three']) await h.say(id, word);
    expect(texts(model.prompts[2]!)).to.have.length(5);
  });

  it('never splits a tool call from its result at the window edge', async () => {
    const model = new RecordingLanguageModel((prompt, call) =>
      call === 0 ? { toolCalls: [{ toolName: 'notes_list', input: {} }] } : { text: `seen ${prompt.length}` },
    );
    const list: ToolDefinition = {
      name: 'notes_list',
      description: 'x',
      inputSchema: { type: 'object' },
      risk: 'read',
      execute: async () => ({ notes: [] }),
    };
    const h = turnHarness({ model, tools: [list], settings: { historyWindow: 1 } });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, 'list them');
    const second = model.prompts[1]!;
    const calls = second.flatMap((m) =>
      m.role === 'assistant' ? m.content.filter((p) => p.type === 'tool-call').map((p) => (p as { toolCallId: string }).toolCallId) : [],
    );
    const results = second.flatMap((m) => (m.role === 'tool' ? m.content.map((p) => (p as { toolCallId: string }).toolCallId) : []));
    expect(calls).to.have.length(1);
    expect(results).to.deep.equal(calls);
    // The answer being written is never windowed away, nor is the request it answers.
    expect(lastUserText(second)).to.equal('list them');
  });

  it('truncates a long tool result before the model sees it, marked as truncated, and stores it whole', async () => {
    const { h, id, seen } = await bigReportSeen(1_000);
    const value = seen as { truncated: boolean; originalLength: number; content: string };
    expect(value.truncated).to.equal(true);
    expect(value.content).to.have.length(1_000);
    expect(value.originalLength).to.be.greaterThan(50_000);
    const stored = await h.getThread.execute({ principal: ada, threadId: id });
    const part = stored.messages[1]!.parts.find((p) => p.type === 'tool-big_report') as { output: { report: string } };
    expect(part.output.report).to.have.length(50_000);
  });

  it('passes tool results whole when the cap is 0', async () => {
    const { seen } = await bigReportSeen(0);
    expect((seen as { report: string }).report).to.have.length(50_000);
  });

  it('bounds model output per turn with maxOutputTokens across steps', async () => {
    const model = new RecordingLanguageModel((_prompt, call) =>
      call < 5 ? { toolCalls: [{ toolName: 'big_report', input: { call } }] } : { text: 'finally' },
    );
    const h = turnHarness({ model, tools: [bigTool], settings: { maxOutputTokens: 3 } });
    const { id } = await h.createThread.execute({ principal: ada });
    const chunks = await h.say(id, 'loop');
    expect(model.calls.map((c) => c.maxOutputTokens)).to.deep.equal([3, 2, 1]);
    expect(chunks[chunks.length - 1]).to.deep.equal({ type: 'finish', finishReason: 'length' });
  });

  it('ends a turn whose model fails mid-answer with an error part, keeping what was said', async () => {
    const model = new RecordingLanguageModel(() => ({ text: 'half of an answer', failAfter: true }));
    const h = turnHarness({ model });
    const { id } = await h.createThread.execute({ principal: ada });
    const chunks = await h.say(id, 'hi');
    expect(chunks.some((c) => c.type === 'error')).to.equal(true);
    expect(chunks[chunks.length - 1]).to.deep.include({ type: 'finish', finishReason: 'error' });
    const stored = await h.getThread.execute({ principal: ada, threadId: id });
    expect(stored.messages).to.have.length(2);
    expect(stored.messages[1]!.parts.find((p) => p.type === 'text')).to.deep.include({ text: 'half of an answer', state: 'done' });
    expect(stored.messages[1]!.parts.some((p) => p.type === 'data-porter-error')).to.equal(true);
    expect(h.logger.text()).to.contain('provider exploded');
    expect(chunks.find((c) => c.type === 'error')).to.deep.include({
      errorText: 'The model failed before finishing this answer. What it produced so far is saved.',
    });
    await h.say(id, 'still there?');
  });

  it('claims nothing was saved when the model failed before producing anything; the error part comes before the error', async () => {
    const model = new RecordingLanguageModel(() => ({ text: '', failAfter: true }));
    const h = turnHarness({ model });
    const { id } = await h.createThread.execute({ principal: ada });
    const chunks = await h.say(id, 'hi');
    const types = chunks.map((c) => c.type);
    expect(types.indexOf('data-porter-error')).to.be.within(0, types.indexOf('error'));
    expect(chunks.find((c) => c.type === 'error')).to.deep.include({ errorText: 'The model failed before finishing this answer.' });
  });

  it('aborts the model call once nobody has read the turn for the grace period, and saves what was produced', async () => {
    const { model, h, id } = await leftTurn({ answer: 'a slow answer that keeps going', graceMs: 50, readUntil: 'slow' });
    expect(model.aborted, 'still running within the grace period').to.equal(0);
    await h.hub.find(id)!.whenEnded();
    expect(model.aborted).to.equal(1);
    const stored = await h.getThread.execute({ principal: ada, threadId: id });
    const saved = stored.messages[1]!.parts.find((p) => p.type === 'text') as { text: string };
    expect(saved.text.startsWith('a slow')).to.equal(true);
    expect(saved.text.length).to.be.lessThan('a slow answer that keeps going'.length);
  });

  it('keeps a turn whose only client went away running for a client that comes back within the grace period', async () => {
    const { model, h, id } = await leftTurn({ answer: 'an answer worth waiting for', graceMs: 200, readUntil: 'answer' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const back = await h.rejoin.execute({ principal: ada, threadId: id });
    expect(back).to.not.equal(null);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(model.aborted, 'the returning reader keeps it alive past the first grace period').to.equal(0);
    back!.detach();
    await h.hub.find(id)!.whenEnded();
    expect(model.aborted).to.equal(1);
  });

  it('stops a turn at once on request, whoever reads it, and frees the thread for the next turn', async () => {
    const model = new RecordingLanguageModel((prompt) =>
      lastUserText(prompt) === 'go' ? { text: 'a long answer still being written', untilAborted: true } : { text: 'next' },
    );
    const h = turnHarness({ model });
    const { id } = await h.createThread.execute({ principal: ada });
    const stream = await h.start(id, 'go');
    await readUntilText(stream, 'long');
    expect(await h.stop.execute({ principal: ada, threadId: id })).to.deep.equal({ stopped: true });
    expect(model.aborted).to.equal(1);
    const rest = await collect(stream);
    expect(rest[rest.length - 1]).to.deep.include({ type: 'finish' });
    expect(await h.stop.execute({ principal: ada, threadId: id })).to.deep.equal({ stopped: false });
    const next = await h.say(id, 'again');
    expect(next.some((c) => c.type === 'text-delta')).to.equal(true);
    let code = '';
    try {
      await h.stop.execute({ principal: { ...ada, subject: 'someone-else' }, threadId: id });
    } catch (error) {
      code = (error as { code: string }).code;
    }
    expect(code, "someone else's thread").to.equal('not-found');
  });

  it('lets a second client rejoin a turn in flight, replaying what it missed; the turn outlives the first client', async () => {
    const waiting = gatedTool({ name: 'wait', description: 'waits', risk: 'read' }, { waited: true });
    const model = new RecordingLanguageModel((_p, call) =>
      call === 0 ? { toolCalls: [{ toolName: 'wait', input: {} }] } : { text: 'after waiting' },
    );
    const h = turnHarness({ model, tools: [waiting.tool] });
    const { id } = await h.createThread.execute({ principal: ada });
    const first = await h.start(id, 'wait');
    await waiting.started;
    const second = await h.rejoin.execute({ principal: ada, threadId: id });
    expect(second).to.not.equal(null);
    first.detach();
    waiting.release();
    const replayed = await collect(second!);
    expect(replayed[0]).to.deep.include({ type: 'start' });
    expect(replayed.some((c) => c.type === 'tool-output-available')).to.equal(true);
    expect(replayed[replayed.length - 1]).to.deep.include({ type: 'finish' });
    expect(await h.rejoin.execute({ principal: ada, threadId: id })).to.equal(null);
  });

  it('stops a turn in flight when its thread is deleted, leaving nothing behind', async () => {
    const model = new RecordingLanguageModel(() => ({ text: 'a long answer still being written', untilAborted: true }));
    const h = turnHarness({ model });
    const { id } = await h.createThread.execute({ principal: ada });
    const stream = await h.start(id, 'go');
    const iterator = stream.chunks[Symbol.asyncIterator]();
    while (((await iterator.next()).value as { type: string }).type !== 'text-delta');
    await h.deleteThread.execute({ principal: ada, threadId: id });
    expect(model.aborted).to.equal(1);
    expect(await h.threads.messagesOf(id)).to.deep.equal([]);
    expect(await h.threads.find(id)).to.equal(null);
  });

  it('frees the thread at once when a turn cannot save its answer, so the next turn starts', async () => {
    const h = turnHarness({ model: echo() });
    const { id } = await h.createThread.execute({ principal: ada });
    const putMessage = h.threads.putMessage.bind(h.threads);
    let failed = 0;
    h.threads.putMessage = async (threadId, message) => {
      if (message.role === 'assistant' && failed++ === 0) throw new Error('the store went away');
      return putMessage(threadId, message);
    };
    await h.say(id, 'first');
    await h.hub.settled(id);
    const next = await h.say(id, 'second');
    expect(next.some((c) => c.type === 'text-delta')).to.equal(true);
    expect(failed).to.equal(2);
  });

  it('refuses a second turn on a thread while one is in flight', async () => {
    const model = new RecordingLanguageModel(() => ({ text: 'slow', untilAborted: true }));
    const h = turnHarness({ model });
    const { id } = await h.createThread.execute({ principal: ada });
    const first = await h.start(id, 'a');
    let code = '';
    try {
      await h.runTurn.execute({ principal: ada, threadId: id, message: { id: '', role: 'user', parts: [{ type: 'text', text: 'b' }] } });
    } catch (error) {
      code = (error as { code: string }).code;
    }
    expect(code).to.equal('conflict');
    first.detach();
    await h.hub.settled(id);
  });

  it("shows the model a zod tool's JSON Schema, and answers its bad input with a tool error it reads on the next step", async () => {
    const model = new RecordingLanguageModel((_prompt, call) =>
      call === 0 ? { toolCalls: [{ toolName: 'notes_add', input: { text: 42 } }] } : { text: 'sorry' },
    );
    const add = defineTool({
      name: 'notes_add',
      description: 'Add a note',
      input: z.strictObject({ text: z.string().min(1) }),
      risk: 'write',
      execute: async ({ text }) => ({ added: text }),
    });
    const h = turnHarness({ model, tools: [add] });
    const { id } = await h.createThread.execute({ principal: ada });
    const chunks = await h.say(id, 'add 42');

    const offered = model.calls[0]!.tools!.find((t) => t.name === 'notes_add');
    expect(offered?.type).to.equal('function');
    expect(offered?.type === 'function' && offered.inputSchema).to.deep.include({
      type: 'object',
      properties: { text: { type: 'string', minLength: 1 } },
      required: ['text'],
      additionalProperties: false,
    });
    const error = chunks.find((c) => c.type === 'tool-output-error') as { errorText: string } | undefined;
    expect(error?.errorText).to.equal('Invalid call: /text Invalid input: expected string, received number');
    const read = model.prompts[1]!.flatMap((m) => (m.role === 'tool' ? m.content : []))[0] as unknown as {
      output: { type: string; value: string };
    };
    expect(read.output).to.deep.equal({ type: 'error-text', value: error!.errorText });
    expect(chunks[chunks.length - 1]).to.deep.equal({ type: 'finish', finishReason: 'stop' });
    expect((await h.list.execute({ principal: ada })).approvals).to.have.length(0);
  });
});

/** Reads a turn until its text contains `needle`. */
async function readUntilText(stream: TurnStream, needle: string): Promise<void> {
  const iterator = stream.chunks[Symbol.asyncIterator]();
  let seen = '';
  while (!seen.includes(needle)) {
    const next = await iterator.next();
    if (next.done) throw new Error(`the turn ended before "${needle}"`);
    const chunk = next.value as { type: string; delta?: string };
    if (chunk.type === 'text-delta') seen += chunk.delta;
  }
}
