import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';

/**
 * A zero-latency model that streams `tokens` text deltas, the same for every call. The parts are
 * enqueued at once (no timers): whatever time a turn takes is the server's, not the model's.
 */
export function zeroLatencyModel(tokens: number): MockLanguageModelV3 {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...Array.from({ length: tokens }, (_, i): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't', delta: `tok${i} ` })),
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
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  });
}
