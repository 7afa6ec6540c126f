import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamResult } from '@ai-sdk/provider';

/**
 * A language model that only streams, as the offline models here and in tests and benches are:
 * the runtime always streams, so generating whole is refused rather than faked.
 */
export abstract class StreamOnlyModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly supportedUrls = {};

  constructor(
    readonly provider: string,
    readonly modelId: string,
  ) {}

  async doGenerate(): Promise<never> {
    throw new Error(`The ${this.modelId} model only streams`);
  }

  abstract doStream(options: LanguageModelV4CallOptions): PromiseLike<LanguageModelV4StreamResult>;
}
