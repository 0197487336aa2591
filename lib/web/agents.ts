import type { EventType } from '../core/events.js';
import type { WebMount } from '../daemon/web-port.js';
import { readMurmurState } from '../engine/murmur/state.js';
import { loadOrg } from '../org/org-chart.js';
import { readEvents, type SvcEvent } from '../store/events/log.js';
import { NO_USAGE_SUM, readRunUsage, sumUsageBy, type UsageSum } from '../store/events/usage.js';

/** One agent as the agents page shows it (docs/web-board.md, "Agents and scheduler"). */
export interface AgentRow {
  id: string;
  name: string;
  active: boolean;
  paused: boolean;
  runs: Array<{ taskId: string; title: string; leaseExpiresAt: string | null; sinceMs: number }>;
  lastDispatchAt: string | null;
  /** The most consecutive failed dispatches among the agent's ready tasks. */
  failuresInRow: number;
  /** The tokens and cost of the agent's runs (`run.usage`) since midnight UTC and over the last 30 days. */
  usage: { today: UsageSum; last30Days: UsageSum };
}

/** How far back the agents page sums usage. */
const USAGE_DAYS = 30;

/**
 * `GET /api/agents`: the agents, the daemon's mode and plugins, the plan of a tick, murmur per team and recent SLA
 * violations.
 */
export async function readAgentsPage(mount: WebMount): Promise<Record<string, unknown>> {
  const now = mount.clock().getTime();
  const [status, plan, org, events, usage] = await Promise.all([
    mount.status(),
    mount.plan().catch((err: Error) => [{ kind: 'error', detail: err.message }]),
    loadOrg(mount.paths.root).catch(() => null),
    readEvents(mount.paths.root, { days: 2 }),
    readAgentUsage(mount.paths.root, new Date(now)),
  ]);
  const paused = new Set((status.pausedAgents ?? []).map((pause) => (pause as { agent: string }).agent));
  const lastDispatch = new Map<string, string>();
  for (const event of events)
    if (event.type === 'task.dispatched')
      lastDispatch.set(String((event.payload as { agent?: string } | undefined)?.agent), event.timestamp);
  const ids = new Set([
    ...(org?.agents ?? []).map((agent) => agent.id),
    ...[...mount.index.summaries('in-progress')].map((entry) => entry.agent ?? '').filter(Boolean),
  ]);
  const agents: AgentRow[] = [...ids].sort().map((id) => {
    const def = org?.agents.find((agent) => agent.id === id);
    const runs = [...mount.index.summaries('in-progress')]
      .filter((entry) => entry.agent === id)
      .map((entry) => ({
        taskId: entry.id,
        title: entry.title,
        leaseExpiresAt: entry.lease?.expiresAt ?? null,
        sinceMs: now - Date.parse(entry.updatedAt),
      }));
    const failures = [...mount.index.summaries('ready')]
      .filter((entry) => entry.agent === id)
      .map((entry) => entry.dispatchFailures);
    return {
      id,
      name: def?.name ?? id,
      active: def?.active ?? true,
      paused: paused.has(id),
      runs,
      lastDispatchAt: lastDispatch.get(id) ?? null,
      failuresInRow: Math.max(0, ...failures),
      usage: {
        today: usage.today.get(id) ?? NO_USAGE_SUM,
        last30Days: usage.last30Days.get(id) ?? NO_USAGE_SUM,
      },
    };
  });
  const murmur = await Promise.all(
    (org?.teams ?? [])
      .filter((team) => team.murmur)
      .map(async (team) => ({ team: team.id, state: await readMurmurState(mount.paths, team.id, () => undefined) })),
  );
  return {
    daemon: {
      mode: status.mode,
      plugins: status.plugins,
      version: status.version,
      pid: status.pid,
      scheduler: status.scheduler,
      config: status.config ?? null,
    },
    agents,
    plan,
    murmur,
    slaViolations: recent(events, 'sla.violation', 20),
  };
}

// --- internal ---

/** Each agent's usage since midnight UTC and over the last 30 days, from the `run.usage` events. */
async function readAgentUsage(root: string, now: Date) {
  const runs = await readRunUsage(root, { since: new Date(now.getTime() - USAGE_DAYS * 86_400_000) });
  const midnight = Date.parse(now.toISOString().slice(0, 10));
  return {
    today: sumUsageBy(
      runs.filter((run) => Date.parse(run.timestamp) >= midnight),
      (run) => run.agent,
    ),
    last30Days: sumUsageBy(runs, (run) => run.agent),
  };
}

function recent(events: SvcEvent[], type: EventType, count: number): SvcEvent[] {
  return events
    .filter((event) => event.type === type)
    .slice(-count)
    .reverse();
}
