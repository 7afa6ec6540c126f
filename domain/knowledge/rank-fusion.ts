/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each ranking gives an item
 * 1 / (k + its rank, from 1), and the items are ordered by the sum. It needs no comparable scores,
 * so bm25 or ts_rank and a cosine distance combine as they come; k = 60 is the paper's constant.
 */
export const RRF_K = 60;

/** The ids of every ranking, best first by fused score; ties keep the first ranking's order, then the id. */
export function fuseRankings(rankings: ReadonlyArray<ReadonlyArray<string>>, k: number = RRF_K): string[] {
  const scores = new Map<string, { score: number; first: number }>();
  rankings.forEach((ranking, which) => {
    ranking.forEach((id, place) => {
      const seen = scores.get(id);
      const add = 1 / (k + place + 1);
      if (seen) seen.score += add;
      else scores.set(id, { score: add, first: which * 1_000_000 + place });
    });
  });
  return [...scores.entries()]
    .sort(([a, x], [b, y]) => y.score - x.score || x.first - y.first || (a < b ? -1 : a > b ? 1 : 0))
    .map(([id]) => id);
}
