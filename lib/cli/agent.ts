import type { CAC } from 'cac';
import { checkRuntimeAgents, type RuntimeCheck, type RuntimeProbe } from '../adapters/runtimes/probe.js';
import { SvcError } from '../core/errors.js';
import { toDidYouMean } from '../core/suggest.js';
import { toTerminalText } from '../core/text.js';
import { loadOrg } from '../org/org-chart.js';
import type { OrgChart } from '../org/schema.js';
import { ACTIVITY_EVENTS, summarizeAgentActivity } from '../store/events/agent-activity.js';
import { readAgentPauses, setAgentPause, type PauseResult } from '../store/records/agent-pauses.js';
import { readEvents } from '../store/events/log.js';
import { formatAgentTable, type AgentRow } from './output/agent-format.js';
import { registerAgentAdd } from './agent-add.js';
import type { Context } from './frame/context.js';
import { toText } from './output/format.js';
import { listRows } from './frame/rows.js';

/** Who pauses and resumes from the command line. */
const OPERATOR = 'operator';

/** Registers `svc agent add|list|pause|resume` (docs/command-line.md). */
export function registerAgent(cli: CAC, ctx: Context): void {
  registerAgentAdd(cli, ctx);
  cli
    .command(
      'list',
      'Each agent of the org chart: its runtime and version, paused or not, runs in progress, last dispatch, ' +
        'failed dispatches in a row',
    )
    .option('--json', 'Print JSON')
    .action(async (opts: Record<string, unknown>) => {
      const rows = await listAgents(ctx);
      if (opts.json) return ctx.json({ agents: rows });
      formatAgentTable(rows).forEach((line) => ctx.print(line));
    });
  cli
    .command(
      'pause <id>',
      'Give an agent no new dispatch (its running tasks finish) until `svc agent resume`; kept across daemon restarts',
    )
    .option('--reason <text>', 'Why (shown by svc agent list, svc scheduler run and svc daemon status)')
    .option('--json', 'Print JSON')
    .example('svc agent pause dev --reason "rotating its API key"')
    .action(async (id: string, opts: Record<string, unknown>) =>
      print(ctx, await changePause(ctx, String(id), { paused: true, reason: toText(opts.reason) }), {
        json: Boolean(opts.json),
      }),
    );
  cli
    .command('resume <id>', 'Let a paused agent be dispatched again')
    .option('--reason <text>', 'Logged with the event')
    .option('--json', 'Print JSON')
    .action(async (id: string, opts: Record<string, unknown>) =>
      print(ctx, await changePause(ctx, String(id), { paused: false, reason: toText(opts.reason) }), {
        json: Boolean(opts.json),
      }),
    );
}

// --- internal ---

/** The pause to set: whether paused, and why (logged with the event). */
interface PauseChange {
  paused: boolean;
  reason: string | undefined;
}

async function changePause(ctx: Context, agent: string, { paused, reason }: PauseChange): Promise<PauseResult> {
  const store = ctx.store();
  // an agent removed from the chart can still be resumed
  const known = paused || !(await readAgentPauses(store.paths)).has(agent);
  if (known) assertKnownAgent(agent, await loadOrg(ctx.root), paused ? 'pause' : 'resume');
  return setAgentPause(store.paths, store.events, { agent, paused, actor: OPERATOR, reason, now: store.clock() });
}

function print(ctx: Context, result: PauseResult, { json }: { json: boolean }): void {
  if (json) return ctx.json(result);
  const { agent, pause } = result;
  if (result.paused) {
    const what = result.changed ? 'paused' : 'was already paused';
    ctx.print(
      toTerminalText(
        `agent ${agent} ${what} since ${pause!.since}${pause!.reason ? ` (${pause!.reason})` : ''}: ` +
          `no new dispatch; its running tasks finish`,
      ),
    );
    ctx.print(toTerminalText(`resume with: svc agent resume ${agent}`));
  } else
    ctx.print(
      toTerminalText(
        result.changed
          ? `agent ${agent} resumed: its ready tasks can be dispatched again`
          : `agent ${agent} was not paused: nothing changed`,
      ),
    );
}

/** Throws `not_found` with a "Did you mean" for an id the org chart does not know. */
function assertKnownAgent(agent: string, org: OrgChart | null, verb: string): void {
  if (!org)
    throw new SvcError(
      'not_found',
      `Cannot ${verb} agent ${JSON.stringify(agent)}: there is ` +
        `no org chart (org/org-chart.yaml), so no agent is known.`,
      'Declare the agents in org/org-chart.yaml (svc quickstart writes a sample), then try again.',
    );
  const ids = org.agents.map((a) => a.id);
  if (ids.includes(agent)) return;
  throw new SvcError(
    'not_found',
    `Unknown agent ${JSON.stringify(agent)}: the org chart does not list it.${toDidYouMean(agent, ids)}`,
    `The agents are: ${ids.join(', ') || 'none declared'} (svc agent list).`,
  );
}

async function listAgents(ctx: Context): Promise<AgentRow[]> {
  const [org, pauses, running, events] = await Promise.all([
    loadOrg(ctx.root),
    readAgentPauses(ctx.store().paths),
    listRows(ctx, 'in-progress'),
    readEvents(ctx.root),
  ]);
  const activity = summarizeAgentActivity(
    events.filter((e) => (ACTIVITY_EVENTS as readonly string[]).includes(e.type)),
  );
  const clis = new Map(
    (await checkRuntimeAgents(org?.agents ?? [], { env: ctx.io.env, cwd: ctx.root })).map((c) => [c.agent, c]),
  );
  const ids = [
    ...(org?.agents.map((a) => a.id) ?? []),
    ...[...pauses.keys()].filter((id) => !org?.agents.some((a) => a.id === id)),
  ];
  return ids.map((id) => {
    const agent = org?.agents.find((a) => a.id === id);
    const pause = pauses.get(id) ?? null;
    const { lastDispatch = null, failuresInARow = 0 } = activity.get(id) ?? {};
    const runs = running.rows.filter((row) => row.agent === id).map((row) => row.id);
    const check = clis.get(id);
    const cli = check ? toProbe(check) : null;
    return {
      id,
      known: Boolean(agent),
      active: agent?.active ?? false,
      paused: Boolean(pause),
      pause,
      runs,
      lastDispatch,
      failuresInARow,
      runtime: agent?.runtime ?? (agent?.command ? 'command' : null),
      version: cli?.version ?? null,
      cli,
    };
  });
}

/** A runtime agent's check without the agent's own fields (the row has them). */
function toProbe({ agent: _agent, runtime: _runtime, ...probe }: RuntimeCheck): RuntimeProbe {
  return probe;
}
