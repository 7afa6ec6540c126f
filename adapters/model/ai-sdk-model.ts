import {
  convertToModelMessages,
  jsonSchema,
  streamText,
  tool,
  type LanguageModel,
  type TelemetrySettings,
  type ToolSet,
  type UIMessage,
} from 'ai';
import type { Model, ModelEvent, ModelStepRequest } from '../../ports/model.js';

/**
 * The Model port over any AI SDK `LanguageModel`: one `streamText` step with tools declared but
 * not executed, so every call comes back to Porter's loop and its guard.
 */
export class AiSdkModel implements Model {
  constructor(
    private readonly model: LanguageModel,
    readonly source: 'custom' | 'ladder',
    readonly label: string,
    /** The AI SDK's own telemetry: its `ai.*` spans, on Porter's tracer, under the span of the turn that asked. */
    private readonly telemetry?: TelemetrySettings,
  ) {}

  /** The same model, each step traced by the AI SDK with these settings. */
  traced(telemetry: TelemetrySettings): AiSdkModel {
    return new AiSdkModel(this.model, this.source, this.label, telemetry);
  }

  assertConfigured(): void {}

  async *streamStep(request: ModelStepRequest): AsyncIterable<ModelEvent> {
    const tools: ToolSet = {};
    for (const spec of request.tools) {
      tools[spec.name] = tool({
        description: spec.description,
        inputSchema: jsonSchema(spec.inputSchema as Parameters<typeof jsonSchema>[0]),
      });
    }
    const messages = await convertToModelMessages(request.messages as unknown as UIMessage[], { ignoreIncompleteToolCalls: true });
    const result = streamText({
      model: this.model,
      messages,
      ...(request.instructions ? { system: request.instructions } : {}),
      ...(request.tools.length ? { tools } : {}),
      ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
      abortSignal: request.signal,
      maxRetries: 1,
      ...(this.telemetry ? { experimental_telemetry: this.telemetry } : {}),
      // Errors arrive as stream parts and end the turn there (logged by Porter); the SDK's default
      // would also print them to the console.
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (part.text) yield { type: 'text-delta', delta: part.text };
          break;
        case 'tool-call':
          yield { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
          break;
        case 'finish':
          yield {
            type: 'finish',
            reason: unifiedReason(part.finishReason),
            ...(part.totalUsage.outputTokens !== undefined ? { outputTokens: part.totalUsage.outputTokens } : {}),
            ...(totalOf(part.totalUsage) !== undefined ? { totalTokens: totalOf(part.totalUsage) } : {}),
          };
          break;
        case 'error':
          throw part.error instanceof Error ? part.error : new Error(String(part.error));
        case 'abort':
          throw new Error(`the model call was aborted${part.reason ? `: ${part.reason}` : ''}`);
        default:
          break;
      }
    }
  }
}

/** The step's tokens: the provider's total, else input plus output. */
function totalOf(usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number }): number | undefined {
  if (usage.totalTokens !== undefined) return usage.totalTokens;
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

function unifiedReason(reason: string): Extract<ModelEvent, { type: 'finish' }>['reason'] {
  return reason === 'stop' || reason === 'length' || reason === 'tool-calls' || reason === 'error' ? reason : 'other';
}
