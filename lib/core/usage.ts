/**
 * Tokens and cost of model calls, as the APIs report them: `inputTokens` without the cache reads, which are counted
 * apart. `costUsd` is null when the cost is not known (no price for the model and none reported by the CLI): shown
 * as unknown, never as 0.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number | null;
}

/** No tokens, no cost. */
export const NO_USAGE: Readonly<Usage> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
});

/** The sum of two usages; the cost is unknown when either is (a known part of an unknown total is not the total). */
export function addUsage(a: Readonly<Usage>, b: Readonly<Usage>): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : roundUsd(a.costUsd + b.costUsd),
  };
}

/** Every token of a usage, of every kind. */
export function totalTokens(usage: Readonly<Usage>): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** A cost rounded to a millionth of a dollar, so sums of many runs do not print float noise. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

/** `$0.0032` or `unknown`: a cost for people. */
export function formatUsd(usd: number | null): string {
  if (usd === null) return 'unknown';
  return `$${usd >= 1 ? usd.toFixed(2) : usd.toPrecision(2).replace(/0+$/, '').replace(/\.$/, '')}`;
}
