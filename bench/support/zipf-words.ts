/** The made-up vocabulary the retrieval benches index and search: 20,000 pronounceable words. */
export const VOCABULARY = 20_000;

/** A deterministic generator (mulberry32), so every run indexes and asks the same. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Word n of the vocabulary: pronounceable, distinct, 5 to 9 letters. */
export function word(n: number): string {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'do', 'gu', 'be', 'fi', 'ho', 'ju'];
  let out = '';
  let rest = n + 16 * 16;
  while (rest > 0) {
    out += syllables[rest % 16];
    rest = Math.floor(rest / 16);
  }
  return out + 'n';
}

/** A Zipf-like draw: a few words are everywhere, most are rare. */
export function zipf(next: () => number): number {
  return Math.min(VOCABULARY - 1, Math.floor(Math.exp(next() * Math.log(VOCABULARY))) - 1);
}
