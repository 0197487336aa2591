import type { BudgetFigures } from '../../core/events.js';
import { formatUsd, NO_USAGE, type Usage } from '../../core/usage.js';

/** A task's own budget (`metadata.budget`): at most this many dollars and tokens over all its runs. */
export interface TaskBudget {
  usd?: number;
  tokens?: number;
}

/** A task paused because a budget is spent (`metadata.awaiting` with `kind: 'budget'`). */
export type BudgetWait = BudgetFigures & { kind: 'budget'; since: string };

/** The task's budget in `metadata.budget`, its positive numbers only; null when it has none. */
export function toTaskBudget(metadata: Record<string, unknown>): TaskBudget | null {
  const value = metadata.budget as Record<string, unknown> | undefined;
  if (typeof value !== 'object' || value === null) return null;
  const budget: TaskBudget = {};
  if (isPositive(value.usd)) budget.usd = value.usd;
  if (isPositive(value.tokens)) budget.tokens = value.tokens;
  return budget.usd === undefined && budget.tokens === undefined ? null : budget;
}

/** What the task's runs used so far (`metadata.usage`), zero when none is recorded; an unknown cost stays null. */
export function toRecordedUsage(metadata: Record<string, unknown>): Usage {
  const value = metadata.usage as Record<string, unknown> | undefined;
  if (typeof value !== 'object' || value === null) return { ...NO_USAGE };
  const count = (key: string) => (typeof value[key] === 'number' ? (value[key] as number) : 0);
  return {
    inputTokens: count('inputTokens'),
    outputTokens: count('outputTokens'),
    cacheReadTokens: count('cacheReadTokens'),
    cacheWriteTokens: count('cacheWriteTokens'),
    costUsd: value.costUsd === null ? null : count('costUsd'),
  };
}

/** The budget wait of a task's metadata, or null (an approval gate's wait, or none). */
export function toBudgetWait(metadata: Record<string, unknown>): BudgetWait | null {
  const value = metadata.awaiting as Partial<BudgetWait> | undefined;
  if (typeof value !== 'object' || value === null || value.kind !== 'budget') return null;
  const { scope, id, limit, spent, unit, since, period } = value;
  if (typeof id !== 'string' || typeof since !== 'string' || typeof limit !== 'number' || typeof spent !== 'number')
    return null;
  if ((scope !== 'task' && scope !== 'agent' && scope !== 'team') || (unit !== 'usd' && unit !== 'tokens')) return null;
  return { kind: 'budget', scope, id, limit, spent, unit, since, ...(period ? { period } : {}) };
}

/** `$2.40 of $2` or `512,000 of 500,000 tokens`: an amount spent against its limit, for people. */
export function formatSpent(figures: Pick<BudgetFigures, 'limit' | 'spent' | 'unit'>): string {
  if (figures.unit === 'tokens') return `${toCount(figures.spent)} of ${toCount(figures.limit)} tokens`;
  return `${formatDollars(figures.spent)} of ${formatDollars(figures.limit)}`;
}

/** `agent coder spent $20.40 of $20 today (usdPerDay)`, `task T spent 600 of 500 tokens (its budget)`. */
export function describeSpent(figures: BudgetFigures): string {
  const spent = `${figures.scope} ${figures.id} spent ${formatSpent(figures)}`;
  if (figures.scope === 'task') return `${spent} (its budget)`;
  return `${spent} ${figures.period === 'month' ? 'this month' : 'today'} (${toKey(figures)})`;
}

/** `task`, `agent coder usdPerDay`, `team core usdPerMonth`: which budget, in a few words. */
export function toScopeLabel(figures: BudgetFigures): string {
  return figures.scope === 'task' ? 'task' : `${figures.scope} ${figures.id} ${toKey(figures)}`;
}

/** The org chart's key of an agent's or team's budget: `usdPerDay`, `usdPerMonth` or `tokensPerDay`. */
export function toKey(figures: Pick<BudgetFigures, 'unit' | 'period'>): string {
  if (figures.unit === 'tokens') return 'tokensPerDay';
  return figures.period === 'month' ? 'usdPerMonth' : 'usdPerDay';
}

// --- internal ---

function isPositive(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function toCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A budget's dollars: `$20` for a whole number, else as every cost is shown (`formatUsd`). */
function formatDollars(usd: number): string {
  return Number.isInteger(usd) ? `$${usd}` : formatUsd(usd);
}
