import * as z from 'zod';
import { toDidYouMean } from '../core/suggest.js';
import { asRecord, recordsOf, type Problem } from './problems.js';

/** The agent CLIs svc runs itself (docs/agent-runtimes.md). */
export const RUNTIMES = ['claude-code', 'codex', 'gemini'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

/** What a runtime agent may do beyond svc's own tools, mapped to each CLI's flags. */
export const PERMISSIONS = ['read-only', 'edit', 'full'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The run idle timeout: a run that produced nothing for this long is ended as hung (10 minutes). */
export const DEFAULT_RUN_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

const positive = z.number().positive('must be greater than 0');
const positiveInt = z.number().int('must be a whole number').positive('must be greater than 0');

/** `agents[].budget` and `teams[].budget`: spending limits per calendar day or month (UTC). */
export const BudgetSchema = z.strictObject(
  { usdPerDay: positive.optional(), usdPerMonth: positive.optional(), tokensPerDay: positiveInt.optional() },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys' ? 'unknown setting (known: usdPerDay, usdPerMonth, tokensPerDay)' : undefined,
  },
);

/** `aof.pricing.<model>`: what a million tokens of each kind costs. */
export const PriceSchema = z.strictObject(
  {
    inputUsdPerMTok: z.number().min(0, 'must be 0 or more'),
    outputUsdPerMTok: z.number().min(0, 'must be 0 or more'),
    cacheReadUsdPerMTok: z.number().min(0, 'must be 0 or more').optional(),
    cacheWriteUsdPerMTok: z.number().min(0, 'must be 0 or more').optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? 'unknown setting (known: inputUsdPerMTok, outputUsdPerMTok, cacheReadUsdPerMTok, cacheWriteUsdPerMTok)'
        : undefined,
  },
);

/** The settings of an agent that names a `runtime` (all optional in the schema; checked by `checkRuntimes`). */
export const RuntimeFields = {
  runtime: z.string().min(1, 'must not be empty').optional(),
  model: z.string().min(1, 'must not be empty').optional(),
  baseUrl: z.url({ error: 'must be a URL such as http://127.0.0.1:4000' }).optional(),
  bin: z.string().min(1, 'must not be empty').optional(),
  permissions: z.string().optional(),
  resume: z.boolean().optional(),
  budget: BudgetSchema.optional(),
  runIdleTimeoutMs: positiveInt.optional(),
};

export type Budget = z.output<typeof BudgetSchema>;
export type Price = z.output<typeof PriceSchema>;

/**
 * Problems of the agents' runtimes in raw org chart data: an unknown runtime or permission (with "Did you mean"),
 * `runtime` beside `command`, and a budget in USD for an agent or team whose models have no known price.
 */
export function checkRuntimes(data: unknown): Problem[] {
  const chart = asRecord(data);
  if (!chart) return [];
  const pricing = asRecord(asRecord(chart.aof)?.pricing) ?? {};
  const agents = recordsOf(chart.agents);
  const problems: Problem[] = [];
  for (const [i, agent] of agents) {
    const path = `agents[${i}]`;
    if (typeof agent.runtime === 'string' && !(RUNTIMES as readonly string[]).includes(agent.runtime))
      problems.push({ path: `${path}.runtime`, problem: unknownWord('runtime', agent.runtime, RUNTIMES) });
    if (typeof agent.permissions === 'string' && !(PERMISSIONS as readonly string[]).includes(agent.permissions))
      problems.push({
        path: `${path}.permissions`,
        problem: unknownWord('permission', agent.permissions, PERMISSIONS),
      });
    if (agent.runtime !== undefined && agent.command !== undefined)
      problems.push({ path: `${path}.runtime`, problem: 'an agent has either a runtime or a command, not both' });
    if (hasUsdBudget(agent.budget) && !isPriced(agent, pricing))
      problems.push({ path: `${path}.budget`, problem: unpriced(agent) });
  }
  for (const [i, team] of recordsOf(chart.teams)) {
    if (!hasUsdBudget(team.budget)) continue;
    const members = agents.filter(
      ([, agent]) => agent.team === team.id || (Array.isArray(team.members) && team.members.includes(agent.id)),
    );
    const missing = members.find(([, agent]) => !isPriced(agent, pricing));
    if (missing) problems.push({ path: `teams[${i}].budget`, problem: unpriced(missing[1]) });
  }
  return problems;
}

// --- internal ---

function unknownWord(what: string, word: string, known: readonly string[]): string {
  return `unknown ${what} ${JSON.stringify(word)} (known: ${known.join(', ')}).${toDidYouMean(word, known)}`;
}

function hasUsdBudget(budget: unknown): boolean {
  const record = asRecord(budget);
  return record !== null && (record.usdPerDay !== undefined || record.usdPerMonth !== undefined);
}

/**
 * An agent's cost is known while it runs: its model is priced by `aof.pricing` (Claude Code reports a cost of its own,
 * but only at the run's end, too late to stop a run at its budget).
 */
function isPriced(agent: Record<string, unknown>, pricing: Record<string, unknown>): boolean {
  return typeof agent.model === 'string' && Object.hasOwn(pricing, agent.model);
}

function unpriced(agent: Record<string, unknown>): string {
  const model = typeof agent.model === 'string' ? agent.model : '(no model set)';
  return (
    `a budget in USD needs the price of agent ${JSON.stringify(agent.id)}'s model ${model}: ` +
    `add it to aof.pricing (e.g. aof.pricing.${typeof agent.model === 'string' ? agent.model : '<model>'}: ` +
    `{ inputUsdPerMTok: 3, outputUsdPerMTok: 15 }), or set the budget in tokens`
  );
}
