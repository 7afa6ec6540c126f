import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { StreamOnlyModel } from '../../adapters/model/stream-only-model.js';

/** Now, in milliseconds since the epoch with microseconds: comparable between processes on one machine. */
export const stampNow = (): number => performance.timeOrigin + performance.now();

/**
 * A model for latency benches: asked `clock <count> <intervalMs>`, it streams `count` text deltas
 * `intervalMs` apart, each the instant it was emitted (`stampNow()`, then a space), so a reader
 * anywhere on the machine knows how late each chunk reached it. It stops when aborted.
 */
export class ClockModel extends StreamOnlyModel {
  constructor() {
    super('bench', 'clock');
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const last = [...options.prompt].reverse().find((m) => m.role === 'user');
    const text = last && last.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    const [, count = '10', interval = '50'] = /clock (\d+) (\d+)/.exec(text) ?? [];
    return { stream: clockStream(Number(count), Number(interval), options.abortSignal) };
  }
}

export function clockStream(count: number, intervalMs: number, signal?: AbortSignal): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream<LanguageModelV4StreamPart>({
    async start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 't' });
      for (let i = 0; i < count; i++) {
        if (signal?.aborted) return controller.error(new DOMException('aborted', 'AbortError'));
        controller.enqueue({ type: 'text-delta', id: 't', delta: `${stampNow().toFixed(3)} ` });
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
      controller.enqueue({ type: 'text-end', id: 't' });
      controller.enqueue({
        type: 'finish',
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: count, text: count, reasoning: 0 },
        },
      });
      controller.close();
    },
  });
}
