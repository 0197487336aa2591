import { describeSpent } from '../../store/disk/budget.js';
import type { BudgetFigures } from '../../core/events.js';
import type { Budget } from '../../org/runtimes.js';
import type { OrgChart } from '../../org/schema.js';
import type { Period, Spend, SpendLedger } from './ledger.js';

/** One budget of the org chart that an agent's runs count against: its own, or a team's it belongs to. */
export interface BudgetLimit {
  scope: 'agent' | 'team';
  id: string;
  /** The agents whose runs the budget counts (the agent itself, or the team's members). */
  agents: readonly string[];
  unit: 'usd' | 'tokens';
  period: Period;
  limit: number;
}

/**
 * The budgets of the org chart that `agent`'s runs count against: the agent's own, then those of its teams (the team
 * it names in `team`, and the teams listing it in `members`).
 */
export function findBudgetLimits(org: OrgChart | null, agent: string): BudgetLimit[] {
  if (!org) return [];
  const limits: BudgetLimit[] = [];
  const own = org.agents.find((a) => a.id === agent);
  if (own?.budget) limits.push(...toLimits(own.budget, { scope: 'agent', id: agent, agents: [agent] }));
  for (const team of org.teams ?? []) {
    if (!team.budget) continue;
    const members = org.agents.filter((a) => a.team === team.id || team.members.includes(a.id)).map((a) => a.id);
    if (!members.includes(agent) && !team.members.includes(agent)) continue;
    limits.push(...toLimits(team.budget, { scope: 'team', id: team.id, agents: [...new Set([...members, agent])] }));
  }
  return limits;
}

/** The figures of `limit` with `spent` against it. */
export function toFigures(limit: BudgetLimit, spent: Spend): BudgetFigures {
  return {
    scope: limit.scope,
    id: limit.id,
    limit: limit.limit,
    spent: limit.unit === 'usd' ? spent.usd : spent.tokens,
    unit: limit.unit,
    period: limit.period,
  };
}

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

// --- internal ---

function toLimits(budget: Budget, owner: Pick<BudgetLimit, 'scope' | 'id' | 'agents'>): BudgetLimit[] {
  const limits: BudgetLimit[] = [];
  if (budget.usdPerDay !== undefined) limits.push({ ...owner, unit: 'usd', period: 'day', limit: budget.usdPerDay });
  if (budget.usdPerMonth !== undefined)
    limits.push({ ...owner, unit: 'usd', period: 'month', limit: budget.usdPerMonth });
  if (budget.tokensPerDay !== undefined)
    limits.push({ ...owner, unit: 'tokens', period: 'day', limit: budget.tokensPerDay });
  return limits;
}
