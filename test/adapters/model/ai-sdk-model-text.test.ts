import { expect } from 'chai';
import { APICallError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { AiSdkModel } from '../../../adapters/model/ai-sdk-model.js';

const usage = { inputTokens: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } };
const streamed = (text: string) => ({
  stream: new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 't' });
      for (const word of text.split(/(?<= )/)) controller.enqueue({ type: 'text-delta', id: 't', delta: word });
      controller.enqueue({ type: 'text-end', id: 't' });
      controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage });
      controller.close();
    },
  }),
});
const asked = () => ({
  instructions: 'Name this conversation.',
  messages: [{ id: 'm', role: 'user' as const, parts: [{ type: 'text' as const, text: 'What goes in the spring release?' }] }],
  maxOutputTokens: 24,
  signal: AbortSignal.timeout(5_000),
});

describe('AiSdkModel.generateText: one call answered whole', () => {
  it('asks a provider for its whole answer once, streaming nothing, with the call’s bounds and tokens', async () => {
    const provider = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'Spring release plan' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      }),
      doStream: async () => streamed('never streamed'),
    });
    const said = await new AiSdkModel(provider, 'custom', 'mock').generateText(asked());
    expect(said).to.deep.equal({ text: 'Spring release plan', reason: 'stop', outputTokens: 3, totalTokens: 10 });
    expect(provider.doGenerateCalls).to.have.length(1);
    expect(provider.doStreamCalls).to.have.length(0);
    expect(provider.doGenerateCalls[0]!.maxOutputTokens).to.equal(24);
    expect(provider.doGenerateCalls[0]!.prompt[0]).to.deep.equal({ role: 'system', content: 'Name this conversation.' });
  });

  it('streams a model that only streams, and after the first refusal asks it no more whole answers', async () => {
    const provider = new MockLanguageModelV4({ doStream: async () => streamed('Spring release plan') });
    const model = new AiSdkModel(provider, 'custom', 'mock');
    expect(await model.generateText(asked())).to.deep.equal({
      text: 'Spring release plan',
      reason: 'stop',
      outputTokens: 3,
      totalTokens: 10,
    });
    expect(await model.generateText(asked())).to.include({ text: 'Spring release plan' });
    expect(provider.doGenerateCalls).to.have.length(1);
    expect(provider.doStreamCalls).to.have.length(2);
  });

  it('keeps a provider’s own failure a failure: nothing is streamed instead', async () => {
    const failure = new APICallError({ message: 'overloaded', url: 'http://provider.test', requestBodyValues: {}, statusCode: 400 });
    const provider = new MockLanguageModelV4({
      doGenerate: async () => {
        throw failure;
      },
      doStream: async () => streamed('should not be asked'),
    });
    const model = new AiSdkModel(provider, 'custom', 'mock');
    const error = await model.generateText(asked()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.equal(failure);
    expect(provider.doStreamCalls).to.have.length(0);
  });
});
