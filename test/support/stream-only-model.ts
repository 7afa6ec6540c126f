import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamResult } from '@ai-sdk/provider';

/**
 * What the stand-in models of tests and benches share: an AI SDK v3 model that only streams (the
 * agent loop never asks for a whole answer at once). A subclass names itself and writes `doStream`.
 */
export abstract class StreamOnlyModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly supportedUrls = {};

  constructor(
    readonly provider: string,
    readonly modelId: string,
  ) {}

  async doGenerate(): Promise<never> {
    throw new Error(`The ${this.modelId} model only streams`);
  }

  abstract doStream(options: LanguageModelV3CallOptions): PromiseLike<LanguageModelV3StreamResult>;
}
