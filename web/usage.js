// Usage as the pages show it: tokens by kind, runs and cost; an unknown cost is never shown as $0.

/** `2 runs · 330,800 tokens (input 24,000 · output 6,800 · cache read 300,000 · cache write 0) · $0.75`. */
export function usageText(usage) {
  const count = (n) => n.toLocaleString('en-US');
  const total = usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const kinds = `input ${count(usage.inputTokens)} · output ${count(usage.outputTokens)} · cache read ${count(usage.cacheReadTokens)} · cache write ${count(usage.cacheWriteTokens)}`;
  return `${usage.runs} run${usage.runs === 1 ? '' : 's'} · ${count(total)} tokens (${kinds}) · ${costText(usage)}`;
}

/** `$0.75`; `≥ $0.50` when some runs' costs are unknown; `cost unknown` when none is known. */
export function costText(usage) {
  if (usage.costUsd !== null) return usd(usage.costUsd);
  if (usage.knownCostUsd !== undefined && usage.unpricedRuns < usage.runs) return `≥ ${usd(usage.knownCostUsd)}`;
  return 'cost unknown';
}

function usd(value) {
  return `$${value >= 1 ? value.toFixed(2) : Number(value.toPrecision(2)).toString()}`;
}
