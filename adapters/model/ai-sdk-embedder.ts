import { LegacyOpenTelemetry } from '@ai-sdk/otel';
import type { Tracer } from '@opentelemetry/api';
import { embedMany, type EmbeddingModel, type TelemetryOptions } from 'ai';
import type { Embedder } from '../../ports/embedder.js';
import { defined } from '../../domain/defined.js';

/**
 * The Embedder port over an AI SDK `EmbeddingModel`, through `embedMany` (which splits the values
 * into as many calls as the model's `maxEmbeddingsPerCall` allows). Traced like the agent's model
 * (ai-sdk-model.ts): with Porter's tracer, each call's `ai.embedMany` and `ai.embedMany.doEmbed`
 * spans nest under Porter's knowledge span; the text embedded is recorded only with `recordContent`.
 */
export class AiSdkEmbedder implements Embedder {
  readonly label: string;

  constructor(
    private readonly model: EmbeddingModel,
    private readonly telemetry: TelemetryOptions = { isEnabled: false },
  ) {
    this.label = typeof model === 'string' ? model : `${model.provider}/${model.modelId}`;
  }

  traced(tracer: Tracer, recordContent: boolean): AiSdkEmbedder {
    return new AiSdkEmbedder(this.model, {
      isEnabled: true,
      integrations: [new LegacyOpenTelemetry({ tracer })],
      recordInputs: recordContent,
      recordOutputs: recordContent,
    });
  }

  async embed(values: ReadonlyArray<string>, signal?: AbortSignal): Promise<{ vectors: number[][]; tokens: number }> {
    if (values.length === 0) return { vectors: [], tokens: 0 };
    const result = await embedMany({
      model: this.model,
      values: [...values],
      maxRetries: 1,
      telemetry: this.telemetry,
      ...defined({ abortSignal: signal }),
    });
    return { vectors: result.embeddings, tokens: result.usage.tokens ?? 0 };
  }
}
