import { join } from 'node:path';
import { isSvcError } from '../../../core/errors.js';
import { ensureDir, writeAtomic } from '../../../fs/atomic.js';
import { dumpYaml, parseYaml } from '../../../fs/frontmatter.js';
import { readIfExists, toOrgChartFile } from '../../../org/files.js';
import { validateOrg } from '../../../org/org-chart.js';
import { MurmurSchema } from '../../../org/schema.js';
import { readSourceFile, toReason, toStrings } from '../read.js';
import type { OrgMerge } from '../record.js';

/** AOF keys svc's org chart takes (everything else of AOF's chart is listed as ignored). */
const MERGED = new Set(['schemaVersion', 'agents', 'teams', 'roles', 'memoryPools']);

/**
 * Merges `<aof>/org/org-chart.yaml` into `org/org-chart.yaml` (docs/import.md): agents, teams and
 * roles svc does not have are added, memory pools when svc has none; what svc has, and its own
 * `aof:` settings, are kept. Validated before anything is written; a dry run writes nothing.
 */
export async function mergeAofOrg(
  aofDir: string,
  root: string,
  options: { dryRun: boolean; backupDir: string },
): Promise<OrgMerge | undefined> {
  const from = join(aofDir, 'org', 'org-chart.yaml');
  const file = toOrgChartFile(root);
  const merge: OrgMerge = { from, file, changes: [], ignored: [], written: false };
  try {
    // Read as the task files are: a regular file inside the data directory, never through a link.
    const text = await readSourceFile(from, 'an AOF org chart', aofDir).catch((err: unknown) =>
      isSvcError(err, 'not_found') ? null : Promise.reject(err),
    );
    if (text === null) return undefined;
    const aof = asRecord(parseYaml(text, from));
    const before = await readIfExists(file);
    const chart = before === null ? { schemaVersion: 1 } : structuredClone(asRecord(parseYaml(before, file)));
    merge.ignored = Object.keys(aof).filter((key) => !MERGED.has(key));
    const aofAgents = listOf(aof.agents);
    addById(chart, { key: 'agents', kind: 'agent', entries: aofAgents.map(toAgent) }, merge);
    addById(
      chart,
      { key: 'teams', kind: 'team', entries: listOf(aof.teams).map((team) => toTeam(team, aofAgents)) },
      merge,
    );
    const roles = asRecord(chart.roles ?? {});
    for (const [name, role] of Object.entries(asRecord(aof.roles ?? {}))) {
      merge.changes.push({ kind: 'role', id: name, action: Object.hasOwn(roles, name) ? 'keep' : 'add' });
      if (!Object.hasOwn(roles, name)) roles[name] = role;
    }
    if (Object.keys(roles).length) chart.roles = roles;
    if (aof.memoryPools !== undefined) {
      merge.changes.push({
        kind: 'memoryPools',
        id: 'memoryPools',
        action: chart.memoryPools === undefined ? 'add' : 'keep',
      });
      if (chart.memoryPools === undefined) chart.memoryPools = toPools(asRecord(aof.memoryPools));
    }
    validateOrg(chart, `${file} (merged with ${from})`);
    if (options.dryRun || !merge.changes.some((change) => change.action === 'add')) return merge;
    await ensureDir(join(root, 'org'));
    if (before !== null) {
      await ensureDir(options.backupDir, 0o700);
      await writeAtomic(join(options.backupDir, 'org-chart.before-aof.yaml'), before);
    }
    await writeAtomic(file, dumpYaml(chart));
    merge.written = true;
  } catch (err) {
    merge.problem = toReason(err);
  }
  return merge;
}

// --- internal ---

/** Adds to `chart[added.key]` the entries whose id it lacks, each noted in `merge` as an `added.kind` kept or added. */
function addById(
  chart: Record<string, unknown>,
  added: { key: 'agents' | 'teams'; kind: 'agent' | 'team'; entries: Record<string, unknown>[] },
  merge: OrgMerge,
): void {
  const { key, kind, entries } = added;
  const list = listOf(chart[key]);
  const have = new Set(list.map((entry) => entry.id));
  for (const entry of entries) {
    const id = String(entry.id);
    merge.changes.push({ kind, id, action: have.has(id) ? 'keep' : 'add' });
    if (!have.has(id)) list.push(entry);
    have.add(id);
  }
  if (list.length) chart[key] = list;
}

/**
 * AOF agent -> svc agent: capabilities.tags and .concurrency become capabilities and maxConcurrent; the rest goes under
 * metadata.aof.
 */
function toAgent(agent: Record<string, unknown>): Record<string, unknown> {
  const { id, name, active, team, capabilities, ...rest } = agent;
  const caps = asRecord(capabilities ?? {});
  const { tags, concurrency, ...otherCaps } = caps;
  const aof = { ...rest, ...(Object.keys(otherCaps).length ? { capabilities: otherCaps } : {}) };
  return {
    id,
    name: typeof name === 'string' ? name : String(id),
    active: active !== false,
    capabilities: toStrings(tags),
    ...(typeof team === 'string' && team ? { team } : {}),
    ...(typeof concurrency === 'number' && concurrency > 0 ? { maxConcurrent: concurrency } : {}),
    ...(Object.keys(aof).length ? { metadata: { aof } } : {}),
  };
}

/**
 * AOF team -> svc team: members are the team's own `members` and AOF's agents of that team; a murmur svc cannot run
 * stays under metadata.aof.
 */
function toTeam(team: Record<string, unknown>, agents: Record<string, unknown>[]): Record<string, unknown> {
  const { id, name, orchestrator, murmur, members, ...rest } = team;
  const runnable = murmur !== undefined && MurmurSchema.safeParse(murmur).success;
  const aof = { ...rest, ...(murmur !== undefined && !runnable ? { murmur } : {}) };
  const listed = [
    ...toStrings(members),
    ...agents.filter((agent) => agent.team === id).map((agent) => String(agent.id)),
  ];
  return {
    id,
    name: typeof name === 'string' ? name : String(id),
    members: [...new Set(listed)],
    ...(typeof orchestrator === 'string' && orchestrator ? { orchestrator } : {}),
    ...(runnable ? { murmur } : {}),
    ...(Object.keys(aof).length ? { metadata: { aof } } : {}),
  };
}

/** AOF's cold pool is a list of paths; svc's is one `{path}`: the first, the others under `more`. */
function toPools(pools: Record<string, unknown>): Record<string, unknown> {
  const { cold: _cold, ...rest } = pools;
  const cold = toStrings(pools.cold);
  return {
    ...rest,
    ...(cold.length ? { cold: { path: cold[0], ...(cold.length > 1 ? { more: cold.slice(1) } : {}) } } : {}),
  };
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter(
        (entry): entry is Record<string, unknown> =>
          entry !== null && typeof entry === 'object' && !Array.isArray(entry),
      )
    : [];
}

function asRecord(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a YAML mapping');
  return value as Record<string, unknown>;
}
