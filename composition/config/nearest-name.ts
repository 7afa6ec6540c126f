/**
 * The known name a mistyped one most likely meant: the same letters in another case, or at most
 * two edits away (a letter added, dropped, changed, or two neighbours swapped), and never more than
 * half the typed name, so a short unrelated word is not "corrected". Ties go to the earlier name.
 */
export function nearestName(typed: string, known: ReadonlyArray<string>): string | undefined {
  const allowed = Math.min(2, Math.floor(typed.length / 2));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    if (Math.abs(typed.length - name.length) > allowed) continue;
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = distance;
    }
  }
  return rows[a.length]![b.length]!;
}
