import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { StreamOnlyModel } from '../../adapters/model/stream-only-model.js';

/**
 * A model that keeps calling one tool: `callsPerStep` calls in each of its first `steps` steps
 * (Infinity: it never stops on its own), then a last step that says `done`. Each step reports
 * `tokensPerStep` tokens of usage. For the breakers and budgets: a run that loops on a write
 * tool, a turn that asks for 61 calls at once.
 */
export class CallingModel extends StreamOnlyModel {
  private minted = 0;

  constructor(
    private readonly options: {
      readonly tool: string;
      readonly input?: unknown;
      readonly callsPerStep?: number;
      readonly steps?: number;
      readonly tokensPerStep?: number;
    },
  ) {
    super('porter-test', 'calling');
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const stepsSoFar = options.prompt.filter((message) => message.role === 'assistant').length;
    const tokens = this.options.tokensPerStep ?? 1;
    const usage = {
      inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: tokens, text: tokens, reasoning: 0 },
    };
    const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if (stepsSoFar < (this.options.steps ?? Infinity)) {
      for (let i = 0; i < (this.options.callsPerStep ?? 1); i++) {
        parts.push({
          type: 'tool-call',
          toolCallId: `call_${++this.minted}`,
          toolName: this.options.tool,
          input: JSON.stringify(this.options.input ?? {}),
        });
      }
      parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage });
    } else {
      parts.push({ type: 'text-start', id: 't0' }, { type: 'text-delta', id: 't0', delta: 'done' }, { type: 'text-end', id: 't0' });
      parts.push({ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage });
    }
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  }
}
