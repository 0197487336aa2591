import { addUsage, NO_USAGE, roundUsd, type Usage } from '../../core/usage.js';
import { readEvents, type SvcEvent } from './log.js';

/** Usage summed over runs: `costUsd` is null once a run's cost is unknown; `knownCostUsd` sums the costs known. */
export interface UsageSum extends Usage {
  runs: number;
  knownCostUsd: number;
  /** Runs whose cost is not known (no price for their model, none reported). */
  unpricedRuns: number;
}

/** One `run.usage` event's figures and who ran it. */
export interface RunUsageEvent extends Usage {
  timestamp: string;
  taskId: string | null;
  agent: string;
  runtime: string;
  model: string | null;
  run: string;
}

/** Nothing spent: no runs, no tokens, a cost of 0. */
export const NO_USAGE_SUM: Readonly<UsageSum> = Object.freeze({
  ...NO_USAGE,
  runs: 0,
  knownCostUsd: 0,
  unpricedRuns: 0,
});

/** The `run.usage` events of the log at or after `since` (all when absent), oldest first. */
export async function readRunUsage(root: string, options: { since?: Date | undefined } = {}): Promise<RunUsageEvent[]> {
  const since = options.since;
  const events = await readEvents(root, {
    type: 'run.usage',
    ...(since ? { from: since.toISOString().slice(0, 10) } : {}),
  });
  const out: RunUsageEvent[] = [];
  for (const event of events) {
    const run = toRunUsage(event);
    if (run && (!since || Date.parse(run.timestamp) >= since.getTime())) out.push(run);
  }
  return out;
}

/** A run's figures from its `run.usage` event, or null for an event of another type or a damaged one. */
export function toRunUsage(event: SvcEvent): RunUsageEvent | null {
  if (event.type !== 'run.usage') return null;
  const p = event.payload as Record<string, unknown>;
  const counts = [p.inputTokens, p.outputTokens, p.cacheReadTokens, p.cacheWriteTokens];
  if (!counts.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return null;
  if (typeof p.agent !== 'string' || !(p.costUsd === null || typeof p.costUsd === 'number')) return null;
  const [inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens] = counts as number[];
  return {
    timestamp: event.timestamp,
    taskId: event.taskId ?? null,
    agent: p.agent,
    runtime: typeof p.runtime === 'string' ? p.runtime : 'unknown',
    model: typeof p.model === 'string' ? p.model : null,
    run: typeof p.run === 'string' ? p.run : '',
    inputTokens: inputTokens!,
    outputTokens: outputTokens!,
    cacheReadTokens: cacheReadTokens!,
    cacheWriteTokens: cacheWriteTokens!,
    costUsd: p.costUsd,
  };
}

/** `sum` with one more run added. */
export function addRun(sum: Readonly<UsageSum>, run: Readonly<Usage>): UsageSum {
  return {
    ...addUsage(sum, run),
    runs: sum.runs + 1,
    knownCostUsd: roundUsd(sum.knownCostUsd + (run.costUsd ?? 0)),
    unpricedRuns: sum.unpricedRuns + (run.costUsd === null ? 1 : 0),
  };
}

/** The runs summed per key (`keyOf` names a run's row), in the order keys first appear. */
export function sumUsageBy(
  runs: readonly RunUsageEvent[],
  keyOf: (run: RunUsageEvent) => string,
): Map<string, UsageSum> {
  const sums = new Map<string, UsageSum>();
  for (const run of runs) {
    const key = keyOf(run);
    sums.set(key, addRun(sums.get(key) ?? NO_USAGE_SUM, run));
  }
  return sums;
}
