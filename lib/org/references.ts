import { asRecord, recordsOf, type Problem } from './problems.js';

/**
 * Cross-reference problems of raw org chart data: duplicate ids, and every member, orchestrator,
 * role agent and agent team naming something the chart declares. Works on data that failed the
 * schema too, so one run reports everything; shapes the schema rejects are skipped here.
 */
export function checkReferences(data: unknown): Problem[] {
  const chart = asRecord(data);
  if (!chart) return [];
  const agents = recordsOf(chart.agents);
  const teams = recordsOf(chart.teams);
  const agentIds = idsOf(agents);
  const teamIds = idsOf(teams);
  return [
    ...duplicates('agents', 'agent', agents),
    ...duplicates('teams', 'team', teams),
    ...agents.flatMap(([i, agent]) => unknownRef(`agents[${i}].team`, agent.team, { what: 'team', ids: teamIds })),
    ...teams.flatMap(([i, team]) => checkTeam(`teams[${i}]`, team, agentIds)),
    ...checkRoles(chart.roles, agentIds),
  ];
}

// --- internal ---

function idsOf(entries: Array<[number, Record<string, unknown>]>): string[] {
  return [...new Set(entries.flatMap(([, entry]) => (typeof entry.id === 'string' ? [entry.id] : [])))];
}

function duplicates(list: string, what: string, entries: Array<[number, Record<string, unknown>]>): Problem[] {
  const first = new Map<string, number>();
  const problems: Problem[] = [];
  for (const [i, entry] of entries) {
    if (typeof entry.id !== 'string') continue;
    const seen = first.get(entry.id);
    if (seen === undefined) first.set(entry.id, i);
    else
      problems.push({
        path: `${list}[${i}].id`,
        problem: `duplicate ${what} id ${JSON.stringify(entry.id)} (first at ${list}[${seen}])`,
      });
  }
  return problems;
}

function checkTeam(path: string, team: Record<string, unknown>, agentIds: string[]): Problem[] {
  const problems: Problem[] = [];
  if (Array.isArray(team.members)) {
    team.members.forEach((member, j) =>
      problems.push(...unknownRef(`${path}.members[${j}]`, member, { what: 'agent', ids: agentIds })),
    );
  }
  problems.push(...unknownRef(`${path}.orchestrator`, team.orchestrator, { what: 'agent', ids: agentIds }));
  if (team.murmur !== undefined && (typeof team.orchestrator !== 'string' || !team.orchestrator)) {
    problems.push({
      path: `${path}.orchestrator`,
      problem: 'required when murmur is configured (the agent that receives review tasks)',
    });
  }
  return problems;
}

function checkRoles(roles: unknown, agentIds: string[]): Problem[] {
  const record = asRecord(roles);
  if (!record) return [];
  return Object.entries(record).flatMap(([name, role]) => {
    const agents = asRecord(role)?.agents;
    if (!Array.isArray(agents)) return [];
    return agents.flatMap((agent, j) =>
      unknownRef(`roles.${name}.agents[${j}]`, agent, { what: 'agent', ids: agentIds }),
    );
  });
}

/** The ids a reference may name, and what they are (`team`, `agent`). */
interface KnownIds {
  what: string;
  ids: string[];
}

function unknownRef(path: string, value: unknown, { what, ids }: KnownIds): Problem[] {
  if (typeof value !== 'string' || !value || ids.includes(value)) return [];
  const list = ids.length ? ids.join(', ') : 'none declared';
  return [{ path, problem: `unknown ${what} ${JSON.stringify(value)} (known ${what}s: ${list})` }];
}
