import type { CAC } from 'cac';
import { SvcError } from '../core/errors.js';
import { toDidYouMean } from '../core/suggest.js';
import { toTerminalText } from '../core/text.js';
import { toCutoff } from '../core/time/duration.js';
import { formatUsd } from '../core/usage.js';
import {
  NO_USAGE_SUM,
  addRun,
  readRunUsage,
  sumUsageBy,
  type RunUsageEvent,
  type UsageSum,
} from '../store/events/usage.js';
import type { Context } from './frame/context.js';
import { asUsage } from './frame/usage.js';
import { toText } from './output/format.js';
import { formatCount } from './output/usage-format.js';

/** What `svc usage` sums by. */
export const USAGE_KEYS = ['agent', 'team', 'model', 'task'] as const;
export type UsageKey = (typeof USAGE_KEYS)[number];

/** Registers `svc usage`: the `run.usage` events of the log summed by agent, team, model or task. */
export function registerUsage(cli: CAC, ctx: Context): void {
  cli
    .command('usage', 'Sum the tokens and cost of agent runs (the run.usage events) by agent, team, model or task')
    .option('--by <key>', `What a row is: ${USAGE_KEYS.join(', ')} (default agent)`)
    .option('--since <time>', 'Only runs at or after a time (2026-11-23) or a duration back from now (24h, 7d)')
    .option('--json', 'Print {by, since, rows, total} as JSON')
    .example('svc usage --by team --since 7d')
    .action(async (opts: Record<string, unknown>) => {
      const by = asUsage(() => toUsageKey(toText(opts.by) ?? 'agent'));
      const sinceText = toText(opts.since);
      const since = sinceText === undefined ? undefined : asUsage(() => toCutoff(sinceText, new Date(), '--since'));
      const runs = await readRunUsage(ctx.root, { since });
      const keyOf = by === 'team' ? await toTeamKey(ctx.root) : KEY_OF[by];
      const rows = [...sumUsageBy(runs, keyOf)]
        .map(([key, sum]) => ({ key, ...sum }))
        .sort((a, b) => b.knownCostUsd - a.knownCostUsd || totalOf(b) - totalOf(a) || (a.key < b.key ? -1 : 1));
      const total = runs.reduce<UsageSum>(addRun, { ...NO_USAGE_SUM });
      if (opts.json) return ctx.json({ by, since: since?.toISOString() ?? null, rows, total });
      formatTable(by, rows, total).forEach((line) => ctx.print(line));
    });
}

/** A cost for people: `$0.75`, `≥ $0.75` when some runs' costs are not known, `unknown` when none is. */
export function formatSumCost(sum: Readonly<UsageSum>): string {
  if (sum.costUsd !== null) return formatUsd(sum.costUsd);
  return sum.unpricedRuns < sum.runs ? `≥ ${formatUsd(sum.knownCostUsd)}` : 'unknown';
}

// --- internal ---

/** The row of a run without a model, task or team. */
const NONE = { model: '(no model)', task: '(no task)', team: '(no team)' };

const KEY_OF: Record<Exclude<UsageKey, 'team'>, (run: RunUsageEvent) => string> = {
  agent: (run) => run.agent,
  model: (run) => run.model ?? NONE.model,
  task: (run) => run.taskId ?? NONE.task,
};

function toUsageKey(value: string): UsageKey {
  if ((USAGE_KEYS as readonly string[]).includes(value)) return value as UsageKey;
  throw new SvcError(
    'validation_error',
    `--by must be one of ${USAGE_KEYS.join(', ')} (found ${JSON.stringify(value)}).${toDidYouMean(value, USAGE_KEYS)}`,
    'Sum by agent, team, model or task, e.g. svc usage --by team.',
  );
}

/** An agent's team: its own `team`, else the first team whose `members` names it, else `(no team)`. */
async function toTeamKey(root: string): Promise<(run: RunUsageEvent) => string> {
  const { loadOrg } = await import('../org/org-chart.js');
  const org = await loadOrg(root);
  const teams = new Map<string, string>();
  for (const team of org?.teams ?? [])
    for (const member of team.members) if (!teams.has(member)) teams.set(member, team.id);
  for (const agent of org?.agents ?? []) if (agent.team) teams.set(agent.id, agent.team);
  return (run) => teams.get(run.agent) ?? NONE.team;
}

function totalOf(sum: Readonly<UsageSum>): number {
  return sum.inputTokens + sum.outputTokens + sum.cacheReadTokens + sum.cacheWriteTokens;
}

function formatTable(by: UsageKey, rows: readonly (UsageSum & { key: string })[], total: UsageSum): string[] {
  if (!rows.length) return ['(no runs recorded usage)'];
  const header = [by.toUpperCase(), 'RUNS', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE', 'COST'];
  const cells = [...rows, { ...total, key: 'total' }].map((row) => [
    toTerminalText(row.key),
    String(row.runs),
    formatCount(row.inputTokens),
    formatCount(row.outputTokens),
    formatCount(row.cacheReadTokens),
    formatCount(row.cacheWriteTokens),
    formatSumCost(row),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)];
}
