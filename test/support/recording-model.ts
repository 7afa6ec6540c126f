import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { StreamOnlyModel } from '../../adapters/model/stream-only-model.js';

export type Reply =
  | { text: string; words?: number }
  | { toolCalls: Array<{ toolName: string; input: unknown; toolCallId?: string }> }
  /** Streams `text`, then fails mid-answer. */
  | { text: string; failAfter: true }
  /** Streams `text` word by word until the call is aborted, then stops. */
  | { text: string; untilAborted: true };

/**
 * An AI SDK language model for tests that records every prompt it is sent (after the SDK has
 * converted the UI messages, i.e. what a real provider receives) and answers as told.
 */
export class RecordingLanguageModel extends StreamOnlyModel {
  readonly prompts: LanguageModelV4Prompt[] = [];
  readonly calls: LanguageModelV4CallOptions[] = [];
  aborted = 0;

  constructor(private readonly respond: (prompt: LanguageModelV4Prompt, call: number) => Reply) {
    super('test', 'recording');
  }

  async doStream(options: LanguageModelV4CallOptions) {
    this.prompts.push(options.prompt);
    this.calls.push(options);
    const reply = this.respond(options.prompt, this.prompts.length - 1);
    const model = this;
    const usage = (n: number) => ({
      inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: n, text: n, reasoning: 0 },
    });
    // An abort counts when the call's signal fires while the answer is still being written: the
    // AI SDK ends its own stream at once (since AI SDK 7), before this one next looks at the signal.
    let open = true;
    options.abortSignal?.addEventListener(
      'abort',
      () => {
        if (open) model.aborted += 1;
      },
      { once: true },
    );
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          const end = () => {
            open = false;
            controller.close();
          };
          controller.enqueue({ type: 'stream-start', warnings: [] });
          if ('toolCalls' in reply) {
            reply.toolCalls.forEach((call, i) =>
              controller.enqueue({
                type: 'tool-call',
                toolCallId: call.toolCallId ?? `call_${model.prompts.length}_${i}`,
                toolName: call.toolName,
                input: JSON.stringify(call.input),
              }),
            );
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: 'tool-calls', raw: undefined },
              usage: usage(reply.toolCalls.length),
            });
            end();
            return;
          }
          const words = reply.text.split(/(?<=\s)/);
          controller.enqueue({ type: 'text-start', id: 't' });
          for (const word of words) {
            if (options.abortSignal?.aborted) {
              controller.error(new DOMException('aborted', 'AbortError'));
              return;
            }
            controller.enqueue({ type: 'text-delta', id: 't', delta: word });
            if ('untilAborted' in reply) await new Promise((resolve) => setTimeout(resolve, 20));
          }
          if ('failAfter' in reply) {
            // Let the reader take what was streamed: erroring a stream drops chunks still queued.
            await new Promise((resolve) => setTimeout(resolve, 20));
            open = false;
            controller.error(new Error('provider exploded'));
            return;
          }
          if ('untilAborted' in reply) {
            await new Promise<void>((resolve) => options.abortSignal?.addEventListener('abort', () => resolve(), { once: true }));
            controller.error(new DOMException('aborted', 'AbortError'));
            return;
          }
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: usage(words.length) });
          end();
        },
      }),
    };
  }
}

/** The text of the last user message in a prompt. */
export function lastUserText(prompt: LanguageModelV4Prompt): string {
  const last = [...prompt].reverse().find((m) => m.role === 'user');
  return last && last.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
}
