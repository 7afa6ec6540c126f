import type { EmbeddingModelV4 } from '@ai-sdk/provider';

/** How many dimensions the test model's vectors have. */
export const HASHED_DIMENSIONS = 512;

/**
 * Words the test model takes to mean the same: each is embedded as its group's first word. This is
 * what "meaning" is to the stand-in model, so a test can show a passage found by a synonym that
 * full-text search (which matches words) cannot find.
 */
const SAME_MEANING: ReadonlyArray<ReadonlyArray<string>> = [
  ['refund', 'refunds', 'refunded', 'reimburse', 'reimbursed', 'reimbursement', 'repaid', 'repay'],
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'vehicles'],
  ['holiday', 'holidays', 'vacation', 'vacations', 'leave'],
];
const CONCEPT = new Map(SAME_MEANING.flatMap((group) => group.map((word) => [word, group[0]!] as const)));
/** Words too common to carry meaning. */
const STOP = new Set([
  'a',
  'an',
  'the',
  'is',
  'are',
  'of',
  'in',
  'on',
  'for',
  'to',
  'and',
  'or',
  'when',
  'it',
  'its',
  'my',
  'do',
  'i',
  'get',
  'how',
  'what',
  'be',
  'by',
  'at',
]);

/**
 * A deterministic AI SDK `EmbeddingModelV4` for tests: a bag of words, each word folded to its
 * meaning group (SAME_MEANING), hashed (FNV-1a) into one of 512 dimensions, and the counts
 * normalized to length 1. Tokens are the words embedded. Counts its calls and the values it was given.
 */
export class HashedEmbeddingModel implements EmbeddingModelV4 {
  readonly specificationVersion = 'v4' as const;
  readonly provider = 'test';
  readonly modelId = 'hashed-bag-of-words';
  readonly maxEmbeddingsPerCall = 16;
  readonly supportsParallelCalls = false;
  readonly calls: Array<ReadonlyArray<string>> = [];

  async doEmbed(options: { values: Array<string> }) {
    this.calls.push([...options.values]);
    let tokens = 0;
    const embeddings = options.values.map((value) => {
      const words = value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      tokens += words.length;
      return hashedVector(words);
    });
    return { embeddings, usage: { tokens }, warnings: [] };
  }
}

export function hashedVector(words: ReadonlyArray<string>): number[] {
  const vector = new Array<number>(HASHED_DIMENSIONS).fill(0);
  for (const word of words) {
    if (STOP.has(word)) continue;
    const concept = CONCEPT.get(word) ?? word;
    let hash = 0x811c9dc5;
    for (let i = 0; i < concept.length; i++) hash = Math.imul(hash ^ concept.charCodeAt(i), 0x01000193) >>> 0;
    vector[hash % HASHED_DIMENSIONS]! += 1;
  }
  const length = Math.hypot(...vector);
  return length === 0 ? vector : vector.map((value) => value / length);
}
