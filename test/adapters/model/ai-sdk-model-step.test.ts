import { expect } from 'chai';
import { trace } from '@opentelemetry/api';
import { APICallError, RetryError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { AiSdkModel } from '../../../adapters/model/ai-sdk-model.js';
import type { ModelEvent, ModelStepRequest } from '../../../ports/model.js';

const usage = { inputTokens: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } };

/** A provider's stream of `parts`, with its usual opening part. */
const streamOf = (parts: LanguageModelV4StreamPart[]) => ({
  stream: new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  }),
});

const answer = (text: string): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id: 't' },
  ...text.split(/(?<= )/).map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];

const calling: LanguageModelV4StreamPart[] = [
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'notes_add', input: '{"text":"buy milk"}' },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
];

const step = (): ModelStepRequest => ({
  instructions: 'You are helpful.',
  messages: [{ id: 'm', role: 'user', parts: [{ type: 'text', text: 'Add milk to my notes.' }] }],
  tools: [
    {
      name: 'notes_add',
      description: 'Add a note.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
  ],
  maxOutputTokens: 64,
  signal: AbortSignal.timeout(5_000),
});

async function eventsOf(model: AiSdkModel, request = step()): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of model.streamStep(request)) events.push(event);
  return events;
}

/** A provider's failure as the AI SDK reports it: a 503 is retryable, a 400 is not. */
const failure = (statusCode: number, responseHeaders: Record<string, string> = { 'retry-after-ms': '5' }) =>
  new APICallError({
    message: `provider answered ${statusCode}`,
    url: 'http://provider.test/v1/chat',
    requestBodyValues: {},
    statusCode,
    // The provider names its own wait, so the retry comes at once.
    responseHeaders,
  });

describe('AiSdkModel.streamStep: one model call a step', () => {
  it('streams the words, the tool call with its input parsed, and the step’s own tokens, asking the provider once with the step’s prompt, tools and bounds', async () => {
    const provider = new MockLanguageModelV4({ doStream: async () => streamOf([...answer('Adding it now. ').slice(0, -1), ...calling]) });
    const events = await eventsOf(new AiSdkModel(provider, 'custom', 'mock'));
    expect(events).to.deep.equal([
      { type: 'text-delta', delta: 'Adding ' },
      { type: 'text-delta', delta: 'it ' },
      { type: 'text-delta', delta: 'now. ' },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'notes_add', input: { text: 'buy milk' } },
      { type: 'finish', reason: 'tool-calls', outputTokens: 3, totalTokens: 10 },
    ]);
    expect(provider.doStreamCalls).to.have.length(1);
    const asked = provider.doStreamCalls[0]!;
    expect(asked.prompt[0]).to.deep.equal({ role: 'system', content: 'You are helpful.' });
    expect(asked.prompt[1]).to.deep.include({ role: 'user' });
    expect(asked.maxOutputTokens).to.equal(64);
    expect(asked.tools?.map((tool) => tool.name)).to.deep.equal(['notes_add']);
  });

  it('asks again once when the provider fails in a way it marks retryable, and streams the second answer', async () => {
    let calls = 0;
    const provider = new MockLanguageModelV4({
      doStream: async () => {
        calls += 1;
        if (calls === 1) throw failure(503);
        return streamOf(answer('Here you are.'));
      },
    });
    const events = await eventsOf(new AiSdkModel(provider, 'custom', 'mock'));
    expect(calls).to.equal(2);
    expect(events.filter((event) => event.type === 'text-delta').map((event) => (event as { delta: string }).delta)).to.deep.equal([
      'Here ',
      'you ',
      'are.',
    ]);
    expect(events.at(-1)).to.deep.include({ type: 'finish', reason: 'stop' });
  });

  it('waits what the provider names in seconds (`retry-after`) rather than the 2 s backoff', async () => {
    let calls = 0;
    const provider = new MockLanguageModelV4({
      doStream: async () => {
        calls += 1;
        if (calls === 1) throw failure(429, { 'retry-after': '0' });
        return streamOf(answer('Now.'));
      },
    });
    const started = performance.now();
    const events = await eventsOf(new AiSdkModel(provider, 'custom', 'mock'));
    expect(calls).to.equal(2);
    expect(events[0]).to.deep.equal({ type: 'text-delta', delta: 'Now.' });
    expect(performance.now() - started, 'the backoff would wait 2,000 ms').to.be.below(1_500);
  });

  it('fails at once on a failure the provider does not mark retryable, and after one retry on a lasting one', async () => {
    for (const [statusCode, expectedCalls] of [
      [400, 1],
      [503, 2],
    ] as const) {
      let calls = 0;
      const provider = new MockLanguageModelV4({
        doStream: async () => {
          calls += 1;
          throw failure(statusCode);
        },
      });
      const error = await eventsOf(new AiSdkModel(provider, 'custom', 'mock')).then(
        () => null,
        (e: unknown) => e,
      );
      // After its retry, the SDK's RetryError keeps the last failure, which says whether a run may try again.
      const last = statusCode === 503 ? (error as RetryError).lastError : error;
      expect(RetryError.isInstance(error), `a ${statusCode}`).to.equal(statusCode === 503);
      expect(APICallError.isInstance(last) && last.statusCode, `a ${statusCode}`).to.equal(statusCode);
      expect(calls, `a ${statusCode}`).to.equal(expectedCalls);
    }
  });

  it('ends with the provider’s error after the words that came before it', async () => {
    const provider = new MockLanguageModelV4({
      doStream: async () =>
        streamOf([
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Half ' },
          { type: 'error', error: new Error('the provider dropped the answer') },
        ]),
    });
    const seen: ModelEvent[] = [];
    const error = await (async () => {
      for await (const event of new AiSdkModel(provider, 'custom', 'mock').streamStep(step())) seen.push(event);
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(seen).to.deep.equal([{ type: 'text-delta', delta: 'Half ' }]);
    expect(String(error)).to.include('the provider dropped the answer');
  });

  it('gives the same events when the AI SDK traces the step (streamText) as when it does not', async () => {
    for (const parts of [answer('Two words.'), calling]) {
      const provider = new MockLanguageModelV4({ doStream: async () => streamOf(parts) });
      const plain = new AiSdkModel(provider, 'custom', 'mock');
      const traced = plain.traced(trace.getTracer('porter-test'), false);
      expect(await eventsOf(traced)).to.deep.equal(await eventsOf(plain));
    }
  });
});
