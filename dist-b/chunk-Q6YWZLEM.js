import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  SvcError
} from "./chunk-3TDHIPSR.js";

// dist/org/routing.js
function routeTask(request, org, load) {
  const { agent } = request.routing;
  if (agent)
    return routeNamed(agent, org);
  if (!hasRoute(request.routing) && !request.gateRole)
    return { none: "the task names no agent, role, team or tags" };
  if (!org)
    return { none: "no org chart: only routing.agent can be resolved (role, team and tags need org/org-chart.yaml)" };
  const pool = toCandidates(request, org);
  if ("none" in pool)
    return pool;
  const active = pool.agents.filter((candidate) => candidate.active);
  if (!active.length)
    return { none: `${pool.label} has no active agent${describeInactive(pool.agents)}` };
  return { agent: pickLeastBusy(active, org, load).id };
}
function hasRoute(routing) {
  return Boolean(routing.agent || routing.role || routing.team || routing.tags?.length);
}
function assertKnownRouting(routing, org) {
  if (!org)
    return;
  const problems = [];
  const agents = org.agents.map((a) => a.id);
  const roles = Object.keys(org.roles);
  const teams = org.teams.map((t) => t.id);
  if (routing.agent && !agents.includes(routing.agent))
    problems.push(unknown("agent", routing.agent, agents));
  if (routing.role && !roles.includes(routing.role))
    problems.push(unknown("role", routing.role, roles));
  if (routing.team && !teams.includes(routing.team))
    problems.push(unknown("team", routing.team, teams));
  if (!problems.length)
    return;
  throw new SvcError("validation_error", `The org chart does not know this routing:
${problems.join("\n")}`, "Name an agent, role or team of org/org-chart.yaml, or add it there.");
}
function routeNamed(agent, org) {
  if (!org)
    return { agent };
  const found = org.agents.find((a) => a.id === agent);
  if (!found)
    return { none: `agent ${JSON.stringify(agent)} is not in the org chart (known agents: ${list(org.agents.map((a) => a.id))})` };
  if (!found.active)
    return { none: `agent ${JSON.stringify(agent)} is inactive` };
  return { agent };
}
function toCandidates(request, org) {
  const { routing, gateRole } = request;
  if (gateRole)
    return roleAgents(gateRole, org, "gate role");
  if (routing.role)
    return roleAgents(routing.role, org, "role");
  if (routing.team)
    return teamAgents(routing.team, org);
  const tags = routing.tags ?? [];
  const agents = org.agents.filter((a) => tags.every((tag) => a.capabilities.includes(tag)));
  return agents.length ? { agents, label: `tags [${tags.join(", ")}]` } : { none: `no agent has every capability of tags [${tags.join(", ")}]` };
}
function roleAgents(role, org, what) {
  const def = Object.hasOwn(org.roles, role) ? org.roles[role] : void 0;
  if (!def)
    return { none: `${what} ${JSON.stringify(role)} is not in the org chart (known roles: ${list(Object.keys(org.roles))})` };
  return { agents: org.agents.filter((a) => def.agents.includes(a.id)), label: `${what} ${JSON.stringify(role)}` };
}
function teamAgents(teamId, org) {
  const team = org.teams.find((t) => t.id === teamId);
  if (!team)
    return { none: `team ${JSON.stringify(teamId)} is not in the org chart (known teams: ${list(org.teams.map((t) => t.id))})` };
  return { agents: org.agents.filter((a) => team.members.includes(a.id) || a.team === teamId), label: `team ${JSON.stringify(teamId)}` };
}
function pickLeastBusy(agents, org, load) {
  const rank = (a) => {
    const busy = load.get(a.id) ?? 0;
    return [busy < a.maxConcurrent ? 0 : 1, busy, org.agents.indexOf(a)];
  };
  return [...agents].sort((x, y) => {
    const [rx, ry] = [rank(x), rank(y)];
    return rx[0] - ry[0] || rx[1] - ry[1] || rx[2] - ry[2];
  })[0];
}
function describeInactive(agents) {
  return agents.length ? ` (inactive: ${agents.map((a) => a.id).join(", ")})` : " (it lists no agents)";
}
function unknown(what, value, known) {
  return `  routing.${what}: unknown ${what} ${JSON.stringify(value)} (known ${what}s: ${list(known)})`;
}
function list(names) {
  return names.length ? names.join(", ") : "none declared";
}

export {
  routeTask,
  hasRoute,
  assertKnownRouting
};
