import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * A zero-latency model that streams `tokens` text deltas (fewer when the call's `maxOutputTokens`
 * is lower, as a provider's would), the same for every call, or answers them whole. The parts are
 * enqueued at once (no timers): whatever time a turn takes is the server's, not the model's.
 */
export function zeroLatencyModel(tokens: number): MockLanguageModelV4 {
  const words = (count: number) => Array.from({ length: count }, (_, i) => `tok${i} `);
  const finishOf = (count: number) => ({
    finishReason: { unified: count < tokens ? ('length' as const) : ('stop' as const), raw: undefined },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: count, text: count, reasoning: 0 },
    },
  });
  const parts = (count: number): LanguageModelV4StreamPart[] => [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...words(count).map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', ...finishOf(count) },
  ];
  const full = parts(tokens);
  const whole = (count: number) => ({
    content: [{ type: 'text' as const, text: words(count).join('') }],
    ...finishOf(count),
    warnings: [],
  });
  return new MockLanguageModelV4({
    // A provider answers whole too (the AI SDK's generateText): a thread's title is asked that way.
    doGenerate: async ({ maxOutputTokens }) => whole(Math.min(maxOutputTokens ?? tokens, tokens)),
    // A provider stops at the call's `maxOutputTokens` (a thread's title asks for a few words).
    doStream: async ({ maxOutputTokens }) => {
      const answer = maxOutputTokens !== undefined && maxOutputTokens < tokens ? parts(maxOutputTokens) : full;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of answer) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}
