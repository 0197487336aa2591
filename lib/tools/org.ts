import { loadOrg, toDaemonSettings } from '../org/org-chart.js';
import { assertKnownRouting, hasRoute, type RoutingFields } from '../org/routing.js';
import type { OrgChart } from '../org/schema.js';
import { loadWorkflow } from '../org/workflow.js';
import type { GateFlow } from '../store/changes/gates/complete.js';
import type { ToolContext } from './registry.js';

/** The org chart a call works with: the context's (the daemon caches it), else read from the root. */
export async function toOrg(ctx: ToolContext): Promise<OrgChart | null> {
  return ctx.org ? ctx.org() : loadOrg(ctx.store.paths.root);
}

/**
 * Checks routing against the org chart (unknown agent, role or team: `validation_error` listing the
 * known ones) and says whether the task can be routed: with an org chart, an agent, role, team or
 * tag does; without one, only `routing.agent` can be resolved.
 */
export function isRoutable(routing: RoutingFields, org: OrgChart | null): boolean {
  assertKnownRouting(routing, org);
  return org ? hasRoute(routing) : Boolean(routing.agent);
}

/**
 * The lease extension of a heartbeat: `aof.daemon.heartbeatTtlMs` (5 minutes by default, also when the chart is
 * broken).
 */
export async function toLeaseTtlMs(ctx: ToolContext): Promise<number> {
  // A broken org chart must not stop running agents from renewing: fall back to the default.
  const org = await toOrg(ctx).catch(() => null);
  return toDaemonSettings(org).heartbeatTtlMs;
}

/**
 * Resolves `routing.workflow` names to definitions, from `org/workflows/<name>.yaml` of the root,
 * with the org chart's agents and role holders (none when the chart is absent or broken: then no
 * actor counts as an agent, and a completion without `callerRole` is logged as not checked).
 */
export function toFlowLoader(ctx: ToolContext): (name: string) => Promise<GateFlow> {
  return async (name) => {
    const workflow = await loadWorkflow(ctx.store.paths.root, name);
    const org = await toOrg(ctx).catch(() => null);
    if (!org) return workflow;
    const roles = Object.fromEntries(Object.entries(org.roles).map(([role, def]) => [role, def.agents]));
    return { ...workflow, holders: { agents: org.agents.map((agent) => agent.id), roles } };
  };
}
