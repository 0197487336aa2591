import { formatUsd, totalTokens, type Usage } from '../../core/usage.js';

/** Usage summed over runs, as `svc task show` and `svc usage` print it. */
export interface RunsUsage extends Usage {
  runs: number;
}

/**
 * `2 runs, 4,240 tokens (input 1,000, output 200, cache read 3,000, cache write 40), cost $0.75` (or `cost unknown`).
 */
export function formatUsage(usage: Readonly<RunsUsage>): string {
  const kinds = [
    `input ${formatCount(usage.inputTokens)}`,
    `output ${formatCount(usage.outputTokens)}`,
    `cache read ${formatCount(usage.cacheReadTokens)}`,
    `cache write ${formatCount(usage.cacheWriteTokens)}`,
  ];
  const runs = `${usage.runs} run${usage.runs === 1 ? '' : 's'}`;
  return `${runs}, ${formatCount(totalTokens(usage))} tokens (${kinds.join(', ')}), cost ${formatUsd(usage.costUsd)}`;
}

/** `12,345`: a count with thousands separated, the same on every machine. */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
