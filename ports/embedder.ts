/**
 * The Embedder port: text to vectors, through the host's embedding model (an AI SDK
 * `EmbeddingModel`, adapters/model/ai-sdk-embedder.ts). Knowledge embeds its passages when a
 * document is added and each query when it is searched, for hybrid retrieval.
 */
export interface Embedder {
  /** Names the model, e.g. `openai/text-embedding-3-small`: vectors of different models are never compared. */
  readonly label: string;
  /** One vector per value, in order, and the tokens the provider counted (0 when it says none). */
  embed(values: ReadonlyArray<string>, signal?: AbortSignal): Promise<{ vectors: number[][]; tokens: number }>;
}
