import { SvcError } from '../core/errors.js';
import { toDidYouMean } from '../core/suggest.js';
import type { Routing } from '../core/task.js';
import { unknownWorkspace } from './workspaces.js';
import type { Agent, OrgChart } from './schema.js';

/** The routing fields that choose an agent (a task's `routing`, or any plain object of that shape). */
export type RoutingFields = Pick<Routing, 'agent' | 'role' | 'team' | 'tags'> &
  Pick<Partial<Routing>, 'workspace' | 'verify'>;

/** What to route: the task's routing and, for a gated task, the current gate's role. */
export interface RouteRequest {
  routing: RoutingFields;
  gateRole?: string | undefined;
}

/** The chosen agent, or why there is none (the task then stays in `ready` with a `no-route` warning). */
export type Route = { agent: string } | { none: string };

/** Tasks in progress per agent id; a missing agent counts 0. */
export type AgentLoad = ReadonlyMap<string, number>;

/**
 * Routes a task (docs/architecture.md, "Scheduler"): `routing.agent` (taken as given without an org chart; with one,
 * it must be known and active), else the gate role, else `routing.role`, else `routing.team` (its
 * `members` plus agents whose `team` is it), else `routing.tags` (active agents having every tag).
 * Among candidates: active only; agents with a free slot (`maxConcurrent`) first, then fewest in
 * progress, then org chart order. Capacity itself is the scheduler's to enforce.
 */
export function routeTask(request: RouteRequest, org: OrgChart | null, load: AgentLoad): Route {
  const { agent } = request.routing;
  if (agent) return routeNamed(agent, org);
  if (!hasRoute(request.routing) && !request.gateRole) return { none: 'the task names no agent, role, team or tags' };
  if (!org)
    return { none: 'no org chart: only routing.agent can be resolved (role, team and tags need org/org-chart.yaml)' };
  const pool = toCandidates(request, org);
  if ('none' in pool) return pool;
  const active = pool.agents.filter((candidate) => candidate.active);
  if (!active.length) return { none: `${pool.label} has no active agent${describeInactive(pool.agents)}` };
  return { agent: pickLeastBusy(active, org, load).id };
}

/** True when the routing names an agent, role, team or at least one tag. */
export function hasRoute(routing: RoutingFields): boolean {
  return Boolean(routing.agent || routing.role || routing.team || routing.tags?.length);
}

/**
 * Throws `validation_error` listing the known ones when an org chart exists but does not know the named agent, role or
 * team.
 */
export function assertKnownRouting(routing: RoutingFields, org: OrgChart | null): void {
  if (!org && (routing.workspace || routing.verify?.length)) {
    throw new SvcError(
      'validation_error',
      'This task names a workspace or checks, and there is no org chart to define them.',
      'Define them under aof.workspaces and aof.checks in org/org-chart.yaml (docs/workspaces.md).',
    );
  }
  if (!org) return;
  const problems: string[] = [];
  const agents = org.agents.map((a) => a.id);
  const roles = Object.keys(org.roles);
  const teams = org.teams.map((t) => t.id);
  if (routing.agent && !agents.includes(routing.agent)) problems.push(unknown('agent', routing.agent, agents));
  if (routing.role && !roles.includes(routing.role)) problems.push(unknown('role', routing.role, roles));
  if (routing.team && !teams.includes(routing.team)) problems.push(unknown('team', routing.team, teams));
  problems.push(...unknownWorkspaceOrChecks(routing, org));
  if (!problems.length) return;
  throw new SvcError(
    'validation_error',
    `The org chart does not know this routing:\n${problems.join('\n')}`,
    'Name an agent, role, team, workspace or check of org/org-chart.yaml, or ' +
      'add it there (checks are defined by the operator, under aof.checks).',
  );
}

// --- internal ---

/**
 * A workspace other than `parent` must be under `aof.workspaces`, each check under `aof.checks`: a task cannot bring
 * its own command.
 */
function unknownWorkspaceOrChecks(routing: RoutingFields, org: OrgChart): string[] {
  const problems: string[] = [];
  const workspaces = Object.keys(org.aof.workspaces);
  if (routing.workspace && routing.workspace !== 'parent' && !workspaces.includes(routing.workspace))
    problems.push(`  routing.workspace: ${unknownWorkspace(routing.workspace, workspaces)}`);
  const checks = Object.keys(org.aof.checks);
  for (const name of routing.verify ?? []) {
    if (!checks.includes(name))
      problems.push(
        `  routing.verify: unknown check ${JSON.stringify(name)} (org chart checks: ` +
          `${checks.length ? checks.join(', ') : 'none declared under aof.checks'}).${toDidYouMean(name, checks)}`,
      );
  }
  return problems;
}

type Pool = { agents: Agent[]; label: string } | { none: string };

function routeNamed(agent: string, org: OrgChart | null): Route {
  if (!org) return { agent };
  const found = org.agents.find((a) => a.id === agent);
  if (!found)
    return {
      none:
        `agent ${JSON.stringify(agent)} is not in the org chart ` +
        `(known agents: ${list(org.agents.map((a) => a.id))})`,
    };
  if (!found.active) return { none: `agent ${JSON.stringify(agent)} is inactive` };
  return { agent };
}

function toCandidates(request: RouteRequest, org: OrgChart): Pool {
  const { routing, gateRole } = request;
  if (gateRole) return roleAgents(gateRole, org, 'gate role');
  if (routing.role) return roleAgents(routing.role, org, 'role');
  if (routing.team) return teamAgents(routing.team, org);
  const tags = routing.tags ?? [];
  const agents = org.agents.filter((a) => tags.every((tag) => a.capabilities.includes(tag)));
  return agents.length
    ? { agents, label: `tags [${tags.join(', ')}]` }
    : { none: `no agent has every capability of tags [${tags.join(', ')}]` };
}

function roleAgents(role: string, org: OrgChart, what: string): Pool {
  const def = Object.hasOwn(org.roles, role) ? org.roles[role] : undefined;
  if (!def)
    return {
      none: `${what} ${JSON.stringify(role)} is not in the org chart (known roles: ${list(Object.keys(org.roles))})`,
    };
  return { agents: org.agents.filter((a) => def.agents.includes(a.id)), label: `${what} ${JSON.stringify(role)}` };
}

function teamAgents(teamId: string, org: OrgChart): Pool {
  const team = org.teams.find((t) => t.id === teamId);
  if (!team)
    return {
      none: `team ${JSON.stringify(teamId)} is not in the org chart (known teams: ${list(org.teams.map((t) => t.id))})`,
    };
  return {
    agents: org.agents.filter((a) => team.members.includes(a.id) || a.team === teamId),
    label: `team ${JSON.stringify(teamId)}`,
  };
}

function pickLeastBusy(agents: Agent[], org: OrgChart, load: AgentLoad): Agent {
  const rank = (a: Agent) => {
    const busy = load.get(a.id) ?? 0;
    return [busy < a.maxConcurrent ? 0 : 1, busy, org.agents.indexOf(a)] as const;
  };
  return [...agents].sort((x, y) => {
    const [rx, ry] = [rank(x), rank(y)];
    return rx[0] - ry[0] || rx[1] - ry[1] || rx[2] - ry[2];
  })[0]!;
}

function describeInactive(agents: Agent[]): string {
  return agents.length ? ` (inactive: ${agents.map((a) => a.id).join(', ')})` : ' (it lists no agents)';
}

function unknown(what: string, value: string, known: string[]): string {
  return `  routing.${what}: unknown ${what} ${JSON.stringify(value)} (known ${what}s: ${list(known)})`;
}

function list(names: string[]): string {
  return names.length ? names.join(', ') : 'none declared';
}
