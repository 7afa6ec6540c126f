import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * A zero-latency model that streams `tokens` text deltas, the same for every call. The parts are
 * enqueued at once (no timers): whatever time a turn takes is the server's, not the model's.
 */
export function zeroLatencyModel(tokens: number): MockLanguageModelV4 {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...Array.from({ length: tokens }, (_, i): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta: `tok${i} ` })),
    { type: 'text-end', id: 't' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: tokens, text: tokens, reasoning: 0 },
      },
    },
  ];
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  });
}
