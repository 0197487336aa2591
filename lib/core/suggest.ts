/**
 * The candidate closest to a mistyped word ("did you mean"), or undefined when none is close: at
 * most one edit per three letters (a swap of two neighbours counts as one), or the word is the
 * start of exactly one candidate.
 */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  if (!typed) return undefined;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = toDistance(typed, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (best && best.distance <= Math.max(1, Math.floor(typed.length / 3))) return best.candidate;
  const starts = candidates.filter((candidate) => candidate.toLowerCase().startsWith(typed));
  return starts.length === 1 ? starts[0] : undefined;
}

/** ` Did you mean "x"?` for a mistyped word, else the empty string (to append to a message). */
export function toDidYouMean(
  word: string,
  candidates: readonly string[],
  quote: (text: string) => string = (text) => JSON.stringify(text),
): string {
  const match = suggest(word, candidates);
  return match === undefined ? '' : ` Did you mean ${quote(match)}?`;
}

// --- internal ---

/** Edit distance with adjacent transpositions (optimal string alignment). */
function toDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}
