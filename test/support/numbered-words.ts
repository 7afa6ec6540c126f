/** `count` distinct words, `${prefix}0 ${prefix}1 …`: a slow answer whose progress a test can read word by word. */
export function numberedWords(prefix: string, count: number): string {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(' ');
}
