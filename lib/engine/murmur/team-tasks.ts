import type { Routing } from '../../core/task.js';
import type { OrgChart } from '../../org/schema.js';

/** Agent id -> the teams it belongs to (`teams[].members`, or its own `agents[].team`). */
export type Membership = ReadonlyMap<string, ReadonlySet<string>>;

/** Who belongs to which team in an org chart. */
export function membershipOf(org: OrgChart): Membership {
  const out = new Map<string, Set<string>>();
  const add = (agent: string, team: string) => out.set(agent, (out.get(agent) ?? new Set()).add(team));
  for (const team of org.teams) for (const member of team.members) add(member, team.id);
  for (const agent of org.agents) if (agent.team) add(agent.id, agent.team);
  return out;
}

/** The teams a task belongs to: the one `routing.team` names, and every team of its agent. */
export function teamsOfTask(routing: Routing, agent: string | undefined, membership: Membership): string[] {
  const teams = new Set<string>(agent ? membership.get(agent) : undefined);
  if (routing.team) teams.add(routing.team);
  return [...teams];
}
