// "Did you mean --card?": the closest known word to a misspelt one, for a command line's usage errors.

/**
 * The candidate within a small edit distance of `word` (a typo, two swapped letters), or undefined.
 *
 * @example
 * ```ts
 * closestWord('--crad', ['--card', '--url']); // '--card'
 * closestWord('--zzzz', ['--card', '--url']); // undefined
 * ```
 */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const d = editDistance(word, name);
    if (!best || d < best.d) best = { name, d };
  }
  // Up to a third of the word may differ, and at least two edits (`--emial` is one swap from `--email`).
  return best && best.d <= Math.max(2, Math.floor(word.length / 3)) ? best.name : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, before[j - 2]! + 1);
      row.push(v);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}
