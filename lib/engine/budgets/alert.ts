import type { BudgetFigures } from '../../core/events.js';
import { toTerminalText } from '../../core/text.js';
import { formatSpent, toScopeLabel } from '../../store/disk/budget.js';

/** The console alert of a task paused for its budget (`[AOF] BUDGET:` lines), control characters escaped. */
export function formatBudgetAlert(task: { id: string; title: string }, figures: BudgetFigures): string {
  const raise =
    figures.scope === 'task'
      ? `svc task approve ${task.id} --budget-${figures.unit === 'usd' ? 'usd' : 'tokens'} <more>`
      : `raise ${figures.scope}s[${figures.id}].budget in the org chart (or wait for the next period), then ` +
        `svc task approve ${task.id}`;
  return [
    `[AOF] BUDGET: ${task.id} "${task.title}" spent ${formatSpent(figures)} (${toScopeLabel(figures)})`,
    `[AOF] BUDGET:   action: ${raise}; or svc task cancel ${task.id}`,
  ]
    .map((line) => toTerminalText(line))
    .join('\n');
}
