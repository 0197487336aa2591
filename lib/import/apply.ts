import { cp, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Task } from '../core/task.js';
import { ensureDir } from '../fs/atomic.js';
import { withLock } from '../fs/lock/lock.js';
import { createImportedTask, updateImportedTask } from '../store/changes/import.js';
import type { EventInput, EventPayloads } from '../core/events.js';
import type { Store } from '../store/commit/store.js';
import { renderTask } from '../store/disk/task-file.js';
import { loadMap, saveMap, toHash } from './map.js';
import { rewriteDeps } from './deps.js';
import type { ImportPlan, PlannedItem } from './plan.js';
import type { SourceRecord } from './sources/record.js';
import { toImportBody } from './task.js';

/** Options of `applyImport`: when, who imports, and who hears of each batch done. */
export interface ApplyImportOptions {
  now: Date;
  actor: string;
  /**
   * Called after each batch with its entries, once their tasks and events are written: a run cut short later has done
   * these.
   */
  onBatch?: (items: readonly PlannedItem[]) => void;
}

/** Entries written between two reports (their events are appended together). */
export const IMPORT_BATCH = 100;

/**
 * Writes a plan: each new task is created exclusively under its lock, each update goes through
 * the commit protocol, both with a `task.imported` event; the map is saved as the import goes
 * (after a batch, once a tenth of its size has been added since the last save, so the saves
 * cost time linear in the import) and at the end. A run cut short between two saves resumes
 * without duplicates: the next plan finds the tasks it created by their `metadata.source`. One
 * task that fails is reported; the rest go in.
 */
export async function applyImport(store: Store, plan: ImportPlan, options: ApplyImportOptions): Promise<ImportPlan> {
  await store.init();
  await ensureDir(store.paths.imports, 0o700);
  return withLock(
    join(store.paths.imports, `.${plan.system}.lock`),
    { what: `the ${plan.system} import`, waitMs: 30_000 },
    async () => {
      await takeConcurrentImports(store, plan);
      const ids = new Map(plan.items.filter((item) => item.id).map((item) => [item.sourceId, item.id!]));
      const batch: PlannedItem[] = [];
      const events: EventInput[] = [];
      let unsaved = 0;
      let size = Object.keys(plan.map.entries).length;
      const flush = async (): Promise<void> => {
        if (events.length) await store.events.record(options.now, events.splice(0));
        if (unsaved > 0 && unsaved >= Math.max(IMPORT_BATCH, size / 10)) {
          await saveMap(store.paths, plan.map);
          unsaved = 0;
        }
        options.onBatch?.(batch.splice(0));
      };
      for (const item of plan.items) {
        try {
          if (item.action === 'create') events.push(await createTask({ store, plan, ids }, item, options));
          else if (item.action === 'update') await updateTask({ store, plan, ids }, item, options);
          if (item.action === 'create') size++;
          if (item.action === 'create' || item.action === 'update') unsaved++;
        } catch (err) {
          Object.assign(item, {
            action: 'invalid',
            reason:
              err instanceof Error ? err.message.replace(/:\s*\n\s*/g, ': ').replace(/\s*\n\s*/g, '; ') : String(err),
          });
        }
        if (batch.push(item) >= IMPORT_BATCH) await flush();
      }
      unsaved = Number.POSITIVE_INFINITY; // the last save: every entry, and those taken back from the tree
      await flush();
      return plan;
    },
  );
}

// --- internal ---

/**
 * The plan was made before the lock: another import of the same source may have finished since.
 * Its map entries are taken in (so saving ours does not drop them), and an entry it created is not
 * created again.
 */
async function takeConcurrentImports(store: Store, plan: ImportPlan): Promise<void> {
  const fresh = await loadMap(store.paths, plan.system);
  for (const [key, entry] of Object.entries(plan.map.entries)) if (!fresh.entries[key]) fresh.entries[key] = entry;
  plan.map.entries = fresh.entries;
  for (const item of plan.items) {
    const entry = item.action === 'create' ? fresh.entries[item.sourceId] : undefined;
    if (entry)
      Object.assign(item, {
        action: 'unchanged',
        id: entry.id,
        reason: 'imported meanwhile by another import',
        task: undefined,
      });
  }
}

/** An import being written: the store, the plan, and the svc ids of the entries it imports. */
interface ImportRun {
  store: Store;
  plan: ImportPlan;
  ids: ReadonlyMap<string, string>;
}

async function createTask(run: ImportRun, item: PlannedItem, options: ApplyImportOptions): Promise<EventInput> {
  const { store, plan } = run;
  const task = item.task!;
  await copyFiles(store, item.record, { system: plan.system, id: task.id });
  const body = toImportBody(item.record, plan.system, task.id);
  const content = renderTask(task, body);
  const created = await createImportedTask(store, task, body);
  if (!created) throw new Error(`id clash: ${task.id} appeared in svc during the import; run the import again`);
  plan.map.entries[item.sourceId] = {
    id: task.id,
    sourceHash: item.sourceHash,
    svcHash: toHash(content),
    importedAt: options.now.toISOString(),
  };
  return {
    type: 'task.imported',
    taskId: task.id,
    actor: options.actor,
    payload: {
      source: plan.system,
      sourceId: item.sourceId,
      action: 'created',
      status: task.status,
      title: task.title,
      ...toHistory(item),
    },
  };
}

async function updateTask(run: ImportRun, item: PlannedItem, options: ApplyImportOptions): Promise<void> {
  const { store, plan, ids } = run;
  const { record } = item;
  const deps = rewriteDeps(record.dependsOn, { ids, map: plan.map, ...(record.scope ? { scope: record.scope } : {}) });
  item.dangling = deps.dangling;
  await copyFiles(store, record, { system: plan.system, id: item.id! });
  const payload = { source: plan.system, sourceId: item.sourceId, action: 'updated' as const, ...toHistory(item) };
  const { result, unapplied } = await updateImportedTask(store, item.id!, {
    status: record.status,
    actor: options.actor,
    payload,
    toTask: (current) => {
      const metadata = { ...current.task.metadata, ...record.fields?.metadata };
      if (record.extra) metadata[plan.system] = record.extra;
      if (metadata.source && typeof metadata.source === 'object')
        metadata.source = { ...metadata.source, importedAt: options.now.toISOString() };
      const task: Task = record.exact
        ? {
            ...record.exact,
            id: current.task.id,
            dependsOn: deps.dependsOn,
            lease: current.task.lease,
            metadata: { ...record.exact.metadata },
          }
        : {
            ...current.task,
            title: record.title.trim(),
            priority: record.priority ?? current.task.priority,
            routing: { ...current.task.routing, ...record.fields?.routing, tags: record.tags ?? [] },
            dependsOn: deps.dependsOn,
            metadata,
          };
      if (!record.exact && !record.tags?.length) delete task.routing.tags;
      return { task, body: toImportBody(record, plan.system, current.task.id) };
    },
  });
  if (unapplied) item.reason = unapplied;
  plan.map.entries[item.sourceId] = {
    id: result.after.task.id,
    sourceHash: item.sourceHash,
    svcHash: toHash(renderTask(result.after.task, result.after.body)),
    importedAt: options.now.toISOString(),
  };
}

/** Copies an entry's files folder to `data/imports/<system>-files/<id>/` (files already there are replaced). */
async function copyFiles(store: Store, record: SourceRecord, to: { system: string; id: string }): Promise<void> {
  const { system, id } = to;
  // Only folders and regular files: a symbolic link or a device among them is left behind.
  const plain = async (path: string) => {
    const found = await lstat(path);
    return found.isDirectory() || found.isFile();
  };
  if (record.companion)
    await cp(record.companion, join(store.paths.imports, `${system}-files`, id), {
      recursive: true,
      force: true,
      filter: plain,
    });
}

/** The source's history of the entry, for the `task.imported` event (the timeline of `svc events --task`). */
function toHistory(item: PlannedItem): Pick<EventPayloads['task.imported'], 'sourceEvents' | 'history'> {
  const history = item.record.history;
  return history?.count ? { sourceEvents: history.count, history: history.lines } : {};
}
