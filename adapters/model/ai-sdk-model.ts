import { LegacyOpenTelemetry } from '@ai-sdk/otel';
import type { Tracer } from '@opentelemetry/api';
import { retryWithExponentialBackoff } from '@ai-sdk/provider-utils';
import {
  AISDKError,
  APICallError,
  RetryError,
  UnsupportedFunctionalityError,
  convertToModelMessages,
  experimental_streamLanguageModelCall as streamLanguageModelCall,
  experimental_streamTextLowMemory as streamTextOnce,
  generateText,
  jsonSchema,
  tool,
  type LanguageModel,
  type LanguageModelStreamPart,
  type LanguageModelUsage,
  type ModelMessage,
  type TelemetryOptions,
  type TextStreamPart,
  type ToolSet,
  type UIMessage,
} from 'ai';
import type { Model, ModelEvent, ModelStepRequest, ModelText } from '../../ports/model.js';
import { defined } from '../../domain/defined.js';

/** One step's call, as both the SDK's single model call and `streamText` take it. */
interface StepCall {
  readonly model: LanguageModel;
  readonly messages: ModelMessage[];
  readonly instructions?: string;
  readonly tools?: ToolSet;
  readonly maxOutputTokens?: number;
  readonly abortSignal: AbortSignal;
}

/** The AI SDK's telemetry off: no global integration hears the call either. */
const NO_TELEMETRY: TelemetryOptions = { isEnabled: false };

/**
 * The Model port over any AI SDK `LanguageModel`: one model call a step (the SDK's
 * `experimental_streamLanguageModelCall`; a `streamText` step when the SDK traces it) with tools
 * declared but not executed, so every call comes back to Porter's loop and its guard.
 */
export class AiSdkModel implements Model {
  /** Set once the model refused to answer whole (it only streams): its later calls stream at once. */
  private streamsOnly = false;

  constructor(
    private readonly model: LanguageModel,
    readonly source: 'custom' | 'ladder',
    readonly label: string,
    /**
     * The AI SDK's own telemetry for each step. Off unless Porter traces: since AI SDK 7 a call
     * without settings reports to whatever integrations the host registered globally, with
     * prompts and answers, whatever Porter's `telemetry` option says.
     */
    private readonly telemetry: TelemetryOptions = NO_TELEMETRY,
    /** Whether a span made now would be seen; when not, a step runs with the SDK's telemetry off (its events cost a copy each). */
    private readonly observed: () => boolean = () => true,
  ) {}

  /**
   * The same model, each step traced by the AI SDK on Porter's tracer: its `ai.streamText` and
   * `ai.streamText.doStream` spans nest under the turn's span (the SDK's `ai.*` span format, which
   * `@ai-sdk/otel` names LegacyOpenTelemetry; passed per call, so the host's own AI SDK calls keep
   * whatever the host registered). Prompts and answers are recorded only with `recordContent`.
   */
  traced(tracer: Tracer, recordContent: boolean, observed: () => boolean = () => true): AiSdkModel {
    return new AiSdkModel(
      this.model,
      this.source,
      this.label,
      {
        isEnabled: true,
        integrations: [new LegacyOpenTelemetry({ tracer })],
        recordInputs: recordContent,
        recordOutputs: recordContent,
      },
      observed,
    );
  }

  assertConfigured(): void {}

  async generateText(request: Omit<ModelStepRequest, 'tools'>): Promise<ModelText> {
    if (this.streamsOnly) return this.gathered(request);
    const messages = await convertToModelMessages(request.messages as unknown as UIMessage[], { ignoreIncompleteToolCalls: true });
    try {
      const result = await generateText({
        model: this.model,
        messages,
        ...defined({ instructions: request.instructions || undefined, maxOutputTokens: request.maxOutputTokens }),
        abortSignal: request.signal,
        maxRetries: 1,
        telemetry: this.observed() ? this.telemetry : NO_TELEMETRY,
      });
      return {
        text: result.text,
        reason: unifiedReason(result.finishReason),
        ...defined({ outputTokens: result.usage.outputTokens, totalTokens: totalOf(result.usage) }),
      };
    } catch (error) {
      // A provider's own failure (the AI SDK's errors) or a call cut short stays a failure; anything
      // else is a model with no whole answer to give (a stream-only test model): stream it.
      if (request.signal.aborted || (AISDKError.isInstance(error) && !UnsupportedFunctionalityError.isInstance(error))) throw error;
      this.streamsOnly = true;
      return this.gathered(request);
    }
  }

  /** generateText's answer gathered from a streamed step. */
  private async gathered(request: Omit<ModelStepRequest, 'tools'>): Promise<ModelText> {
    let text = '';
    for await (const event of this.streamStep({ ...request, tools: [] })) {
      if (event.type === 'text-delta') text += event.delta;
      if (event.type === 'finish')
        return { text, reason: event.reason, ...defined({ outputTokens: event.outputTokens, totalTokens: event.totalTokens }) };
    }
    return { text, reason: 'other' };
  }

  async *streamStep(request: ModelStepRequest): AsyncIterable<ModelEvent> {
    const tools: ToolSet = {};
    for (const spec of request.tools) {
      tools[spec.name] = tool({
        description: spec.description,
        inputSchema: jsonSchema(spec.inputSchema as Parameters<typeof jsonSchema>[0]),
      });
    }
    const messages = await convertToModelMessages(request.messages as unknown as UIMessage[], { ignoreIncompleteToolCalls: true });
    const call: StepCall = {
      model: this.model,
      messages,
      ...defined({
        instructions: request.instructions || undefined,
        tools: request.tools.length ? tools : undefined,
        maxOutputTokens: request.maxOutputTokens,
      }),
      abortSignal: request.signal,
    };
    if (this.telemetry.isEnabled && this.observed()) {
      yield* this.tracedStep(call);
      return;
    }
    // Untraced, the step is the SDK's single model call (what each step of streamText is made of:
    // the prompt standardized and converted, the tools prepared, tool calls parsed) without the
    // loop around it, its timeouts and its stream of steps, which cost several times the call.
    const retry = retryWithExponentialBackoff({
      maxRetries: 1,
      abortSignal: request.signal,
      shouldRetry: async (error) => isRetryable(error),
      getDelayInMs: ({ error, exponentialBackoffDelay }) => retryDelayOf(error, exponentialBackoffDelay),
      // The SDK's own error after its retries, which keeps each failure (`lastError` says whether a run may try again).
      createRetryError: (failed) => new RetryError(failed),
    });
    const { stream } = await retry(() => streamLanguageModelCall(call));
    for await (const part of stream) {
      if (part.type === 'model-call-end') yield finished(part.finishReason, part.usage);
      else yield* eventOf(part);
    }
  }

  /** One `streamText` step, traced by the AI SDK (its `ai.streamText` spans), with the same events. */
  private async *tracedStep(call: StepCall): AsyncIterable<ModelEvent> {
    // One reader of one projection (`stream`): the SDK's single-consumer form, with no replay
    // branch teed off every part and no content kept for result getters Porter never reads.
    const result = streamTextOnce({
      ...call,
      maxRetries: 1,
      telemetry: this.telemetry,
      // Errors arrive as stream parts and end the turn there (logged by Porter); the SDK's default
      // would also print them to the console.
      onError: () => undefined,
    });
    // The step's own usage: since AI SDK 7 the `finish` part totals every step of the call. A call
    // here is one step (tools are declared, never executed), but the meter counts steps.
    let usage: LanguageModelUsage | undefined;
    for await (const part of result.stream) {
      if (part.type === 'finish-step') usage = part.usage;
      else if (part.type === 'finish') yield finished(part.finishReason, usage ?? part.totalUsage);
      else if (part.type === 'abort') throw new Error(`the model call was aborted${part.reason ? `: ${part.reason}` : ''}`);
      else yield* eventOf(part);
    }
  }
}

/** What a part both streams carry is to Porter: words, a tool call, or the failure (thrown); nothing for any other part. */
function* eventOf(part: LanguageModelStreamPart | TextStreamPart<ToolSet>): Generator<ModelEvent> {
  switch (part.type) {
    case 'text-delta':
      if (part.text) yield { type: 'text-delta', delta: part.text };
      break;
    case 'tool-call':
      yield { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
      break;
    case 'error':
      throw part.error instanceof Error ? part.error : new Error(String(part.error));
    default:
      break;
  }
}

/** The step's `finish` event: its reason and its own tokens. */
function finished(reason: string, usage: LanguageModelUsage): ModelEvent {
  return { type: 'finish', reason: unifiedReason(reason), ...defined({ outputTokens: usage.outputTokens, totalTokens: totalOf(usage) }) };
}

/** What the AI SDK retries: a provider's failure it marks retryable (a 429, a 5xx, a dropped connection). */
function isRetryable(error: unknown): boolean {
  return AISDKError.isInstance(error) && (error as { isRetryable?: unknown }).isRetryable === true;
}

/**
 * The provider's own wait when it names one (`retry-after-ms`, or `retry-after` in seconds or as a
 * date) under a minute or under the backoff's, else the backoff's: the rule of the SDK's own retries.
 */
function retryDelayOf(error: unknown, backoff: number): number {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  const millis = headers?.['retry-after-ms'];
  const after = headers?.['retry-after'];
  let named = millis !== undefined ? Number(millis) : NaN;
  if (Number.isNaN(named) && after !== undefined) {
    named = Number(after) * 1000;
    if (Number.isNaN(named)) named = Date.parse(after) - Date.now();
  }
  return Number.isFinite(named) && named >= 0 && (named < 60_000 || named < backoff) ? named : backoff;
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
