import { objectAt, valueAt } from './step.js';

/**
 * How the gateway config lists its agents: keyed `agents.entries`, a legacy `agents.list`, or none (the sole agent
 * `main`).
 */
export type RosterKind = 'entries' | 'list' | 'implicit';

/** The agents of a gateway config. */
export interface Roster {
  kind: RosterKind;
  ids: string[];
}

/** The id of the gateway's agent when its config names none. */
export const IMPLICIT_AGENT = 'main';

/** Reads the gateway's agents from `agents.entries` (or a legacy `agents.list`). */
export function readRoster(config: Record<string, unknown>): Roster {
  const entries = valueAt(config, 'agents', 'entries');
  if (isObject(entries) && Object.keys(entries).length) return { kind: 'entries', ids: Object.keys(entries) };
  const list = valueAt(config, 'agents', 'list');
  if (Array.isArray(list) && list.length)
    return {
      kind: 'list',
      ids: list.flatMap((item) => (isObject(item) && typeof item.id === 'string' ? [item.id] : [])),
    };
  return { kind: 'implicit', ids: [IMPLICIT_AGENT] };
}

/** A gateway agent's display name (`name`, else `identity.name`, else its id). */
export function toAgentName(config: Record<string, unknown>, id: string): string {
  const entry = findEntry(config, id);
  const name = entry?.name ?? valueAt(entry, 'identity', 'name');
  return typeof name === 'string' && name.trim() ? name : id;
}

/** The config object of one agent, created when `create` (an implicit roster gets its `main` entry). */
export function findEntry(
  config: Record<string, unknown>,
  id: string,
  create = false,
): Record<string, unknown> | undefined {
  const roster = readRoster(config);
  if (roster.kind === 'list') {
    const list = valueAt(config, 'agents', 'list') as unknown[];
    return list.find((item): item is Record<string, unknown> => isObject(item) && item.id === id);
  }
  const entries = valueAt(config, 'agents', 'entries');
  if (isObject(entries) && isObject(entries[id])) return entries[id];
  if (!create || !roster.ids.includes(id)) return undefined;
  return objectAt(config, 'agents', 'entries', id);
}

/**
 * Adds agents to the gateway, in the roster's own form. A roster growing past one agent needs an
 * owner for ambient work: `agents.ownership: "explicit"` and `agents.defaults.systemAgent.agentId`
 * (the agent that was there), unless the config already settles it. Returns notes for the output.
 */
export function addGatewayAgents(
  config: Record<string, unknown>,
  agents: Array<{ id: string; name: string }>,
): string[] {
  const before = readRoster(config);
  const agentsNode = objectAt(config, 'agents');
  if (before.kind === 'list') {
    agentsNode.list = [
      ...(agentsNode.list as unknown[]),
      ...agents.map((agent) => ({ id: agent.id, name: agent.name })),
    ];
  } else {
    const entries = objectAt(config, 'agents', 'entries');
    if (before.kind === 'implicit') entries[IMPLICIT_AGENT] ??= {};
    for (const agent of agents) entries[agent.id] = { name: agent.name };
  }
  return settleOwnership(config, before.ids);
}

/**
 * True when the roster has several agents and nothing names who owns ambient work (the gateway refuses that config).
 */
export function needsOwnership(config: Record<string, unknown>): boolean {
  if (readRoster(config).ids.length < 2 || valueAt(config, 'agents', 'ownership') !== undefined) return false;
  const list = valueAt(config, 'agents', 'list');
  return !(Array.isArray(list) && list.some((item) => isObject(item) && item.default === true));
}

/**
 * Sets `agents.ownership: "explicit"` when `needsOwnership`, and `agents.defaults.systemAgent.agentId`
 * to the agent that was alone before (or `main`) when unset. Returns notes for the output.
 */
export function settleOwnership(config: Record<string, unknown>, previousIds: readonly string[]): string[] {
  if (!needsOwnership(config)) return [];
  objectAt(config, 'agents').ownership = 'explicit';
  const notes = [
    'agents.ownership set to "explicit" (the gateway requires it with ' +
      'several agents): channel messages reach an agent through `bindings`',
  ];
  const owner =
    previousIds.length === 1 ? previousIds[0]! : previousIds.includes(IMPLICIT_AGENT) ? IMPLICIT_AGENT : undefined;
  if (owner && valueAt(config, 'agents', 'defaults', 'systemAgent', 'agentId') === undefined) {
    objectAt(config, 'agents', 'defaults', 'systemAgent').agentId = owner;
    notes.push(`agents.defaults.systemAgent.agentId set to ${owner} (heartbeats and other ambient work stay with it)`);
  }
  return notes;
}

/**
 * The agent whose session calls `sessions_spawn` in standalone mode: `main`, else the system agent, else the sole
 * agent.
 */
export function toRequester(config: Record<string, unknown>): string | null {
  const { ids } = readRoster(config);
  if (ids.includes(IMPLICIT_AGENT)) return IMPLICIT_AGENT;
  const system = valueAt(config, 'agents', 'defaults', 'systemAgent', 'agentId');
  if (typeof system === 'string' && ids.includes(system)) return system;
  return ids.length === 1 ? ids[0]! : null;
}

// --- internal ---

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
