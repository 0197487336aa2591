import { parseTask, type Task } from '../core/task.js';
import { allocateId } from '../store/commit/allocate.js';
import { findTaskFiles } from '../store/commit/copies.js';
import type { Store } from '../store/commit/store.js';
import { renderTask } from '../store/disk/task-file.js';
import { breakCycles, describeCycle } from './cycles.js';
import { rewriteDeps } from './deps.js';
import { loadMap, toHash, type ImportMap } from './map.js';
import { toHashedRecord, type SourceProblem, type SourceRead, type SourceRecord } from './sources/record.js';
import { toImportBody, toNewTask } from './task.js';
import { describeError } from '../core/errors.js';

/** What the import does with one source entry (docs/moving-in-and-out.md). */
export type ImportAction = 'create' | 'update' | 'unchanged' | 'kept' | 'missing' | 'invalid';

/** One line of the report: a source entry, what happened to it, its svc id, why, and its dangling dependencies. */
export interface ImportItem {
  sourceId: string;
  file: string;
  action: ImportAction;
  id?: string;
  reason?: string;
  dangling: string[];
  /** Links dropped because they closed a dependency or parent cycle, in words. */
  cycles?: string[];
}

/**
 * One planned entry: the report's line (the svc id is unknown for a new task in a dry run) and what applying it needs.
 */
export interface PlannedItem extends ImportItem {
  record: SourceRecord;
  sourceHash: string;
  /** A new task, as it will be written. */
  task?: Task;
}

/** The plan of one import: every entry, the source's unreadable entries, and the map it starts from. */
export interface ImportPlan {
  system: string;
  items: PlannedItem[];
  problems: SourceProblem[];
  map: ImportMap;
}

/** Options of `planImport`: the project of new tasks, the time, and whether ids may be reserved (not in a dry run). */
export interface PlanOptions {
  project?: string;
  now: Date;
  reserveIds: boolean;
}

/** Decides, for each record, whether it is new, changed at the source, changed in svc, or unchanged. */
export async function planImport(
  store: Store,
  source: { system: string; read: SourceRead },
  options: PlanOptions,
): Promise<ImportPlan> {
  const { system, read } = source;
  const map = await loadMap(store.paths, system);
  const plan: ImportPlan = { system, items: [], problems: [...read.problems], map };
  const ids = new Map<string, string>();
  const taken = new Map<string, string>(); // svc id -> source id, of this import
  const seen = new Set<string>();
  const wanted = new Set(
    read.records.map((record) => record.exact?.id ?? record.wantedId).filter((id): id is string => id !== undefined),
  );
  if (read.records.some((record) => !map.entries[record.sourceId]))
    await adoptImported(store, { system, map }, options.now);
  const records = [...read.records];
  const cycles = new Map<string, string[]>();
  for (const broken of breakCycles(records))
    cycles.set(broken.sourceId, [...(cycles.get(broken.sourceId) ?? []), describeCycle(broken)]);
  for (const [at, record] of records.entries()) {
    // the source as it is, so a second run finds it unchanged
    const sourceHash = toHash(toHashedRecord(read.records[at]!));
    const item: PlannedItem = {
      sourceId: record.sourceId,
      file: record.file,
      action: 'create',
      dangling: [],
      record,
      sourceHash,
    };
    const broken = cycles.get(record.sourceId);
    if (broken) item.cycles = broken;
    plan.items.push(item);
    if (seen.has(record.sourceId))
      Object.assign(item, { action: 'invalid', reason: `the source has id ${record.sourceId} twice` });
    seen.add(record.sourceId);
    if (item.action === 'invalid') continue;
    const entry = map.entries[record.sourceId];
    if (entry) await judgeExisting(store, item, entry);
    else await pickId(store, item, { taken, reserve: options.reserveIds, now: options.now, map, claimed: wanted });
    if (item.id) ids.set(record.sourceId, item.id);
    if (item.id) taken.set(item.id, record.sourceId);
  }
  const planned = new Set(plan.items.filter((item) => item.action === 'create').map((item) => item.sourceId));
  for (const item of plan.items) if (item.action === 'create') buildTask(item, { system, ids, map, planned }, options);
  return plan;
}

// --- internal ---

async function judgeExisting(store: Store, item: PlannedItem, entry: ImportMap['entries'][string]): Promise<void> {
  item.id = entry.id;
  const current = await store.get(entry.id).catch(() => null);
  if (!current)
    return void Object.assign(item, {
      action: 'missing',
      reason: `${entry.id} is no longer in svc; not created again`,
    });
  if (entry.sourceHash === item.sourceHash) return void (item.action = 'unchanged');
  const svcHash = toHash(renderTask(current.task, current.body));
  if (svcHash === entry.svcHash) item.action = 'update';
  else Object.assign(item, { action: 'kept', reason: 'changed in svc since the import' });
}

/**
 * Tasks of this source that the map lacks (an import interrupted between creating a task and
 * saving the map) are found by their `metadata.source` and taken back into the map, so they are
 * updated from the source rather than created twice.
 */
async function adoptImported(store: Store, source: { system: string; map: ImportMap }, now: Date): Promise<void> {
  const { system, map } = source;
  for (const { task, body } of (await store.list()).tasks) {
    const source = task.metadata.source as { system?: unknown; id?: unknown } | undefined;
    if (!source || source.system !== system || typeof source.id !== 'string' || map.entries[source.id]) continue;
    map.entries[source.id] = {
      id: task.id,
      sourceHash: '',
      svcHash: toHash(renderTask(task, body)),
      importedAt: now.toISOString(),
    };
  }
}

/**
 * What `pickId` needs: the svc ids this run has given (to their source ids), whether to reserve new ids, the time, the
 * map, the ids entries keep.
 */
interface PickContext {
  taken: ReadonlyMap<string, string>;
  reserve: boolean;
  now: Date;
  map: ImportMap;
  claimed: ReadonlySet<string>;
}

async function pickId(store: Store, item: PlannedItem, ctx: PickContext): Promise<void> {
  const { taken, reserve, now, map, claimed } = ctx;
  const wanted = item.record.exact?.id ?? item.record.wantedId;
  if (wanted && item.record.exact && (await isSameTask(store, wanted, item.record))) {
    // Already there exactly as exported (an interrupted import, or the same export twice): nothing to write.
    map.entries[item.sourceId] = {
      id: wanted,
      sourceHash: item.sourceHash,
      svcHash: toHash(renderTask(item.record.exact!, item.record.body)),
      importedAt: now.toISOString(),
    };
    return void Object.assign(item, { id: wanted, action: 'unchanged' });
  }
  if (wanted && !taken.has(wanted) && (await findTaskFiles(store.paths, wanted)).length === 0)
    return void (item.id = wanted);
  const holder = wanted === undefined ? undefined : taken.get(wanted);
  if (wanted)
    item.reason =
      `id clash: ${wanted} is taken ` + `${holder ? `by ${holder} of this import` : 'in svc'}, so it gets a new id`;
  // A new id never takes one that another entry of this import keeps.
  if (reserve)
    do item.id = await allocateId(store.paths, now);
    while (claimed.has(item.id) || taken.has(item.id));
}

async function isSameTask(store: Store, id: string, record: SourceRecord): Promise<boolean> {
  const current = await store.get(id).catch(() => null);
  return (
    current !== null &&
    current.task.id === id &&
    renderTask(current.task, current.body) === renderTask(record.exact!, record.body)
  );
}

/**
 * Builds the task of an entry to create; `known`: the source, the svc ids given, the map, the source ids this run
 * creates.
 */
function buildTask(
  item: PlannedItem,
  known: { system: string; ids: ReadonlyMap<string, string>; map: ImportMap; planned: ReadonlySet<string> },
  options: PlanOptions,
): void {
  const { system, ids, map, planned } = known;
  const scope = item.record.scope;
  const deps = rewriteDeps(item.record.dependsOn, { ids, map, planned, ...(scope ? { scope } : {}) });
  item.dangling = deps.dangling;
  const parentId =
    item.record.parentId === undefined
      ? undefined
      : rewriteDeps([item.record.parentId], { ids, map, ...(scope ? { scope } : {}) }).dependsOn[0];
  try {
    const task = toNewTask(item, system, {
      dependsOn: deps.dependsOn,
      parentId,
      project: options.project,
      now: options.now,
    });
    renderTask(parseTask(task, item.file), toImportBody(item.record, system, task.id), item.file);
    item.task = task;
  } catch (err) {
    Object.assign(item, {
      action: 'invalid',
      id: undefined,
      reason: describeError(err)
        .replace(`${item.file}: `, '')
        .replace(/:\s*\n\s*/g, ': ')
        .replace(/\s*\n\s*/g, '; '),
    });
  }
}
