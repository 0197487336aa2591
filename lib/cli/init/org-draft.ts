import { dirname } from 'node:path';
import { SvcError } from '../../core/errors.js';
import { ensureDir, writeDurable } from '../../fs/atomic.js';
import { dumpYaml, parseYaml } from '../../fs/frontmatter.js';
import { validateOrg } from '../../org/org-chart.js';
import type { OrgChart } from '../../org/schema.js';
import { readConfigText } from './config-file.js';

/** The org chart as `svc init` edits it: the raw document (unknown keys kept), or why it cannot be edited. */
export interface OrgDraft {
  file: string;
  exists: boolean;
  original: string | null;
  /** The raw YAML document; changes go here and are written back with `dumpYaml`. */
  raw: Record<string, unknown>;
  /** The validated chart (for reading agents); null when the file is invalid. */
  chart: OrgChart | null;
  /** The first problems of an invalid chart: the org steps are skipped then. */
  problem?: string;
  changed: boolean;
}

/** Reads the org chart for editing; a missing one becomes an empty chart (`schemaVersion: 1`). */
export async function readOrgDraft(file: string): Promise<OrgDraft> {
  const original = await readConfigText(file, 'the org chart');
  if (original === null)
    return {
      file,
      exists: false,
      original,
      raw: { schemaVersion: 1, agents: [] },
      chart: validateOrg({ schemaVersion: 1 }, file),
      changed: false,
    };
  try {
    const raw = parseYaml(original, file);
    const chart = validateOrg(raw, file);
    return { file, exists: true, original, raw: raw as Record<string, unknown>, chart, changed: false };
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    const problem = err.message.split('\n').slice(0, 3).join('; ');
    return { file, exists: true, original, raw: {}, chart: null, problem, changed: false };
  }
}

/** The ids of the org chart's agents that work through the gateway (no local `command`). */
export function toGatewayAgentIds(draft: OrgDraft): string[] {
  const agents = Array.isArray(draft.raw.agents) ? (draft.raw.agents as Array<Record<string, unknown>>) : [];
  return agents
    .filter((agent) => typeof agent.id === 'string' && agent.command === undefined)
    .map((agent) => agent.id as string);
}

/** The ids of every agent in the org chart draft. */
export function toOrgAgentIds(draft: OrgDraft): string[] {
  const agents = Array.isArray(draft.raw.agents) ? (draft.raw.agents as Array<Record<string, unknown>>) : [];
  return agents.flatMap((agent) => (typeof agent.id === 'string' ? [agent.id] : []));
}

/** Appends agents to the draft's `agents` list. */
export function addOrgAgents(draft: OrgDraft, agents: Array<{ id: string; name: string }>): void {
  const list = Array.isArray(draft.raw.agents) ? (draft.raw.agents as unknown[]) : [];
  draft.raw = {
    ...draft.raw,
    agents: [...list, ...agents.map((agent) => ({ id: agent.id, name: agent.name, active: true }))],
  };
  draft.changed = true;
}

/** The YAML the draft would be written as, checked against the schema first (never writes an invalid chart). */
export function toOrgText(draft: OrgDraft): string {
  validateOrg(draft.raw, draft.file);
  return dumpYaml(draft.raw);
}

/** Writes the org chart atomically. */
export async function writeOrgDraft(draft: OrgDraft): Promise<void> {
  const text = toOrgText(draft);
  await ensureDir(dirname(draft.file));
  await writeDurable(draft.file, text);
}
