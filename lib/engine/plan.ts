import { compareText } from '../core/compare.js';
import { toPriorityRank } from '../core/priority.js';
import type { Status } from '../core/status.js';
import { MAX_DISPATCH_FAILURES, type AdapterKind } from '../core/spawn.js';
import type { Lease, Routing } from '../core/task.js';
import { ROUTES } from '../net/protocol/routes.js';
import type { OrgChart } from '../org/schema.js';
import type { UnavailableWorkspace } from '../org/workspaces.js';
import type { AgentPause } from '../store/records/agent-pauses.js';
import { routeWithinBudget, type SpentOf } from './paused-route.js';

/** What the planner needs of a task (the index holds exactly this). */
export interface PlanTask {
  id: string;
  status: Status;
  priority: string;
  createdAt: string;
  routing: Routing;
  dependsOn: readonly string[];
  lease?: Lease | undefined;
  /** Role of the current gate, for a gated task. */
  gateRole?: string | undefined;
  /** The current gate is an approval gate: a person moves the task on, never an agent. */
  approval?: boolean | undefined;
  dispatchFailures?: number | undefined;
  /** After a failed dispatch, no attempt before this time (`metadata.nextAttemptAt`). */
  nextAttemptAt?: string | undefined;
  /** `notBefore`: no dispatch before this time. */
  notBefore?: string | undefined;
  /** The host that holds the task's worktree: another host's daemon does not dispatch it. */
  workspaceHost?: string | undefined;
}

/** The state a plan is made from: ready and in-progress tasks, and any task's status by id. */
export interface Snapshot {
  ready: readonly PlanTask[];
  inProgress: readonly PlanTask[];
  statusOf(id: string): Status | undefined;
  /**
   * What of an earlier run of this task may still be alive (being ended), or null: such a task is not dispatched yet.
   */
  previousRun?: (id: string) => string | null;
}

/** How dispatch is possible right now (docs/architecture.md, "Adapters"). */
export type Mode = 'booting' | 'plugin' | 'standalone';
export type { AdapterKind };
/** Why a ready task is not dispatched this tick (docs/scheduler.md). */
export const HOLD_REASONS = [
  'previous-run-ending',
  'dependencies',
  'backoff',
  'no-route',
  'agent-busy',
  'concurrency',
  'booting',
  'no-plugin-attached',
  'no-gateway',
  'org-chart',
  'not-before',
  'agent-paused',
  'approval',
  'workspace-host',
  'workspace-unavailable',
  'budget',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** Everything else a plan depends on. */
export interface PlanContext {
  org: OrgChart | null;
  maxConcurrentDispatches: number;
  now: Date;
  mode: Mode;
  pluginAttached: boolean;
  /** Standalone dispatch needs `aof.daemon.gatewayUrl`. */
  gatewayConfigured: boolean;
  /** Set when the org chart is invalid and none is loaded: every ready task is held with it. */
  orgProblem?: string | null;
  /**
   * `aof.daemon.maxDispatchesPerDaemon`: at most `limit` tasks in progress under leases this daemon (`owner`) granted.
   */
  perDaemon?: { limit: number; owner: { host: string; pid: number } };
  /** Paused agents (`svc agent pause`): they get no new dispatch. */
  paused?: ReadonlyMap<string, AgentPause>;
  /** This daemon's host: a task whose worktree is on another host is held (docs/workspaces.md). */
  host?: string | undefined;
  /** Workspaces whose repository is not there now: the tasks that would work in them are held, no others. */
  unavailableWorkspaces?: readonly UnavailableWorkspace[];
  /** Why an agent gets no dispatch because a budget of its own or its team's is spent, or null (docs/scheduler.md). */
  budgetHold?: SpentOf | undefined;
}

/** One step the executor takes. */
export type Action =
  | { kind: 'dispatch'; taskId: string; agent: string; adapter: AdapterKind }
  | { kind: 'expire'; taskId: string; agent: string; sessionId: string; expiredAt: string }
  | { kind: 'deadletter'; taskId: string; failures: number }
  | { kind: 'hold'; taskId: string; reason: HoldReason; detail: string; until?: string };

/**
 * Plans one tick: expire leases past `expiresAt`, then walk ready tasks by priority (critical
 * first) and age, dispatching those whose dependencies are done, that have a route, and for which
 * the agent and the global limit have room and an adapter is usable. Pure: no I/O, no clock.
 */
export function plan(snapshot: Snapshot, ctx: PlanContext): Action[] {
  const actions: Action[] = [];
  const load = new Map<string, number>();
  const count = { running: 0, mine: 0 };
  const owner = ctx.perDaemon?.owner;
  for (const task of snapshot.inProgress) {
    // A lease to `svc` (the daemon running the task's checks) expires too: its check runner sets it to the checks'
    // timeouts (docs/workspaces.md).
    if (task.lease && Date.parse(task.lease.expiresAt) <= ctx.now.getTime()) {
      actions.push({
        kind: 'expire',
        taskId: task.id,
        agent: task.lease.agent,
        sessionId: task.lease.sessionId,
        expiredAt: task.lease.expiresAt,
      });
      continue;
    }
    count.running++;
    if (owner && task.lease?.host === owner.host && task.lease.pid === owner.pid) count.mine++;
    const agent = task.lease?.agent;
    if (agent) load.set(agent, (load.get(agent) ?? 0) + 1);
  }
  for (const task of [...snapshot.ready].sort(byDispatchOrder)) {
    const action = planReady(task, { snapshot, ctx }, { load, count });
    actions.push(action);
    if (action.kind !== 'dispatch') continue;
    count.running++;
    count.mine++;
    load.set(action.agent, (load.get(action.agent) ?? 0) + 1);
  }
  return actions;
}

/** Dispatch order: priority (critical > high > normal > low), then `createdAt`, then id. */
export function byDispatchOrder(a: PlanTask, b: PlanTask): number {
  return (
    toPriorityRank(b.priority) - toPriorityRank(a.priority) ||
    compareText(a.createdAt, b.createdAt) ||
    compareText(a.id, b.id)
  );
}

// --- internal ---

/**
 * What to do with a ready task, seen in `snapshot` and `ctx`, after the dispatches already planned (`busy`: tasks per
 * agent, running ones).
 */
function planReady(
  task: PlanTask,
  seen: { snapshot: Snapshot; ctx: PlanContext },
  busy: { load: Map<string, number>; count: { running: number; mine: number } },
): Action {
  const { snapshot, ctx } = seen;
  const { load, count } = busy;
  const { running } = count;
  const hold = (reason: HoldReason, detail: string): Action => ({ kind: 'hold', taskId: task.id, reason, detail });
  if ((task.dispatchFailures ?? 0) >= MAX_DISPATCH_FAILURES)
    return { kind: 'deadletter', taskId: task.id, failures: task.dispatchFailures ?? 0 };
  const previous = snapshot.previousRun?.(task.id);
  if (previous) return hold('previous-run-ending', previous);
  if (ctx.orgProblem) return hold('org-chart', ctx.orgProblem);
  if (task.approval)
    return hold(
      'approval',
      `its gate is an approval gate: \`svc task approve ${task.id}\` or \`svc task reject ${task.id} --note ...\``,
    );
  if (task.workspaceHost && ctx.host && task.workspaceHost !== ctx.host)
    return hold('workspace-host', `its worktree is on host ${task.workspaceHost}; only the daemon there dispatches it`);
  if (task.notBefore && Date.parse(task.notBefore) > ctx.now.getTime())
    return {
      kind: 'hold',
      taskId: task.id,
      reason: 'not-before',
      detail: `not before ${task.notBefore}`,
      until: task.notBefore,
    };
  if (task.nextAttemptAt && Date.parse(task.nextAttemptAt) > ctx.now.getTime()) {
    const failures = task.dispatchFailures ?? 0;
    return {
      kind: 'hold',
      taskId: task.id,
      reason: 'backoff',
      detail: `${failures} failed dispatch${failures === 1 ? '' : 'es'}; next attempt at ${task.nextAttemptAt}`,
      until: task.nextAttemptAt,
    };
  }
  const waiting = task.dependsOn.filter((id) => snapshot.statusOf(id) !== 'done');
  if (waiting.length) return hold('dependencies', `waits on ${waiting.join(', ')}`);
  const route = routeWithinBudget({ routing: task.routing, gateRole: task.gateRole }, ctx.org, {
    load,
    paused: ctx.paused,
    spentOf: ctx.budgetHold,
  });
  if ('none' in route) return hold('no-route', route.none);
  if ('paused' in route) return hold('agent-paused', route.paused);
  if ('spent' in route) return hold('budget', route.spent);
  const agent = ctx.org?.agents.find((a) => a.id === route.agent);
  const workspace = task.routing.workspace ?? agent?.workspace;
  const unavailable = workspace ? ctx.unavailableWorkspaces?.find((w) => w.name === workspace) : undefined;
  if (unavailable)
    return hold(
      'workspace-unavailable',
      `workspace ${workspace} cannot be used: ${unavailable.problem}; ` +
        `its tasks wait until the repository is back (svc org validate)`,
    );
  const limit = agent?.maxConcurrent ?? 1;
  if ((load.get(route.agent) ?? 0) >= limit)
    return hold('agent-busy', `agent ${route.agent} has ${limit} of ${limit} tasks in progress`);
  if (running >= ctx.maxConcurrentDispatches)
    return hold('concurrency', `${running} of ${ctx.maxConcurrentDispatches} dispatches in progress`);
  const perDaemon = ctx.perDaemon;
  if (perDaemon && count.mine >= perDaemon.limit)
    return hold(
      'concurrency',
      `${count.mine} of ${perDaemon.limit} dispatches of this daemon in progress (maxDispatchesPerDaemon)`,
    );
  if (agent?.command || agent?.runtime)
    return { kind: 'dispatch', taskId: task.id, agent: route.agent, adapter: 'command' };
  if (ctx.pluginAttached) return { kind: 'dispatch', taskId: task.id, agent: route.agent, adapter: 'plugin' };
  if (ctx.mode === 'booting') return hold('booting', 'waiting for a gateway plugin to attach during the boot window');
  if (ctx.mode === 'plugin')
    return hold('no-plugin-attached', `plugin-expected mode and no plugin holds ${ROUTES.spawnWait.path}`);
  if (!ctx.gatewayConfigured)
    return hold('no-gateway', `agent ${route.agent} has no command and aof.daemon.gatewayUrl is not set`);
  return { kind: 'dispatch', taskId: task.id, agent: route.agent, adapter: 'standalone' };
}
