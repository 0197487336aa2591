import { routeTask, type AgentLoad, type Route, type RouteRequest } from '../org/routing.js';
import type { OrgChart } from '../org/schema.js';
import type { AgentPause } from '../store/records/agent-pauses.js';

/** A route, or why its agent cannot have the task now: every candidate is paused. */
export type PausedRoute = Route | { paused: string };

/** Why an agent gets no task now because a budget is spent, or null. */
export type SpentOf = (agent: string) => string | null;

/**
 * Routes a task around paused agents (docs/scheduler.md): a task routed to a role, team or
 * tags goes to another active candidate that is not paused; one naming its agent, or whose every
 * candidate is paused, is held (`agent-paused`), saying who paused it, when and why.
 */
export function routeUnpaused(
  request: RouteRequest,
  org: OrgChart | null,
  agents: { load: AgentLoad; paused: ReadonlyMap<string, AgentPause> | undefined },
): PausedRoute {
  const { load, paused } = agents;
  const route = routeTask(request, org, load);
  if (!paused?.size || 'none' in route) return route;
  const pause = paused.get(route.agent);
  if (!pause) return route;
  if (!request.routing.agent && org) {
    const other = routeTask(
      request,
      { ...org, agents: org.agents.map((a) => (paused.has(a.id) ? { ...a, active: false } : a)) },
      load,
    );
    if ('agent' in other) return other;
  }
  return {
    paused:
      `${describePause(pause)}${request.routing.agent ? '' : ' (so is every other candidate)'}; ` +
      `\`svc agent resume ${pause.agent}\` lets it run again`,
  };
}

/**
 * Routes a task around paused agents and around agents whose budget is spent (`spentOf` describes it, else null): a
 * task routed to a role, team or tags goes to a candidate with budget left; one naming its agent, or whose every
 * candidate has spent a budget, is held (`budget`) with the first choice's description.
 */
export function routeWithinBudget(
  request: RouteRequest,
  org: OrgChart | null,
  agents: { load: AgentLoad; paused: ReadonlyMap<string, AgentPause> | undefined; spentOf?: SpentOf | undefined },
): PausedRoute | { spent: string } {
  const route = routeUnpaused(request, org, agents);
  const spentOf = agents.spentOf;
  if (!spentOf || !('agent' in route)) return route;
  const spent = spentOf(route.agent);
  if (!spent) return route;
  if (!request.routing.agent && org) {
    const out = org.agents.map((a) => (spentOf(a.id) ? { ...a, active: false } : a));
    const other = routeUnpaused(request, { ...org, agents: out }, agents);
    if ('agent' in other) return other;
  }
  return { spent: `${spent}${request.routing.agent ? '' : ' (every other candidate has spent a budget too)'}` };
}

/** `agent dev is paused since <time> by <who> (<reason>)`. */
export function describePause(pause: AgentPause): string {
  return (
    `agent ${pause.agent} is paused since ${pause.since} by ` + `${pause.by}${pause.reason ? ` (${pause.reason})` : ''}`
  );
}
