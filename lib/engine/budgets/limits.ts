import { describeSpent } from '../../store/disk/budget.js';
import type { BudgetFigures } from '../../core/events.js';
import { findBudgetLimits, toFigures } from '../../org/budget-limits.js';
import type { OrgChart } from '../../org/schema.js';
import type { SpendLedger } from '../../store/events/spend.js';

/**
 * What holds `agent`'s next dispatch: the first of its budgets (its own, then its teams') spent in full in the period
 * of `now`, described (`agent coder spent $20.40 of $20 today (usdPerDay)`); null when none is.
 */
export function findSpentBudget(
  ledger: SpendLedger,
  seen: { org: OrgChart | null; agent: string; now: Date },
): BudgetFigures | null {
  for (const limit of findBudgetLimits(seen.org, seen.agent)) {
    const figures = toFigures(limit, ledger.spentBy(limit.agents, limit.period, seen.now));
    if (figures.spent >= figures.limit) return figures;
  }
  return null;
}

/**
 * The planner's budget hold for one plan: the description of the agent's spent budget, or null. Each agent is looked
 * up once per plan.
 */
export function toBudgetHold(
  ledger: SpendLedger,
  seen: { org: OrgChart | null; now: Date },
): ((agent: string) => string | null) | undefined {
  if (!seen.org?.agents.some((a) => a.budget) && !seen.org?.teams?.some((t) => t.budget)) return undefined;
  const known = new Map<string, string | null>();
  return (agent) => {
    if (!known.has(agent)) {
      const spent = findSpentBudget(ledger, { ...seen, agent });
      known.set(agent, spent && `${describeSpent(spent)}; it waits for the next period or a raise in the org chart`);
    }
    return known.get(agent) ?? null;
  };
}
