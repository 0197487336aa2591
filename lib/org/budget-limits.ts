import type { BudgetFigures } from '../core/events.js';
import type { Budget } from './runtimes.js';
import type { OrgChart } from './schema.js';

/** What was spent against a budget: dollars and tokens. */
export interface SpendFigures {
  usd: number;
  tokens: number;
}

/** One budget of the org chart that an agent's runs count against: its own, or a team's it belongs to. */
export interface BudgetLimit {
  scope: 'agent' | 'team';
  id: string;
  /** The agents whose runs the budget counts (the agent itself, or the team's members). */
  agents: readonly string[];
  unit: 'usd' | 'tokens';
  period: 'day' | 'month';
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
export function toFigures(limit: BudgetLimit, spent: SpendFigures): BudgetFigures {
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
 * The budgets of one agent (its own) or one team (its own, over its members) of the org chart: what an approval of a
 * task paused for that budget looks at again.
 */
export function findOwnerLimits(org: OrgChart | null, owner: { scope: 'agent' | 'team'; id: string }): BudgetLimit[] {
  if (owner.scope === 'agent') return findBudgetLimits(org, owner.id).filter((limit) => limit.scope === 'agent');
  const team = org?.teams.find((t) => t.id === owner.id);
  if (!org || !team?.budget) return [];
  const members = org.agents.filter((a) => a.team === team.id || team.members.includes(a.id)).map((a) => a.id);
  return toLimits(team.budget, { scope: 'team', id: team.id, agents: [...new Set([...members, ...team.members])] });
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
