import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDir, writeAtomic } from '../fs/atomic.js';

/**
 * What svc records of a worktree it created (`data/workspaces/<task id>.json`). Only a worktree
 * with a record is ever removed by svc, and only a branch with one is ever deleted
 * (`svc workspace prune`): one made by hand, or named in a task's frontmatter by hand, has none.
 * The record stays after the worktree is removed (`removed`, under `removed/`), naming the branch
 * svc made, until `svc workspace prune` deletes that branch.
 */
export interface WorkspaceRecord {
  taskId: string;
  name: string;
  repo: string;
  path: string;
  /** The worktree root the path was made under (records of older versions have none). */
  root?: string | undefined;
  branch: string;
  base: string;
  host: string;
  createdAt: string;
  /** Set when the task ended but the worktree was kept (uncommitted changes): why, and since when. */
  kept?: { reason: string; at: string } | undefined;
  /** Set once svc removed it (the branch stays): when and why; the record then lives under `removed/`. */
  removed?: { at: string; reason?: string } | undefined;
}

/** Writes (or replaces) the record of a task's worktree (one removed goes to `removed/`). */
export async function writeRecord(dir: string, record: WorkspaceRecord): Promise<void> {
  const at = record.removed ? join(dir, REMOVED) : dir;
  await ensureDir(at);
  await writeAtomic(join(at, `${record.taskId}.json`), `${JSON.stringify(record, null, 2)}\n`);
}

/** The record of a task's worktree while it exists (not removed), or null. */
export async function readRecord(dir: string, taskId: string): Promise<WorkspaceRecord | null> {
  return readRecordAt(dir, taskId);
}

/** The record of a task's worktree, removed or not; null when svc made none. */
export async function readAnyRecord(dir: string, taskId: string): Promise<WorkspaceRecord | null> {
  return (await readRecordAt(dir, taskId)) ?? (await readRecordAt(join(dir, REMOVED), taskId));
}

/** Every record of a worktree not removed, by task id order (what the cleanup looks at). */
export async function listRecords(dir: string): Promise<WorkspaceRecord[]> {
  return listRecordsAt(dir);
}

/** Every record, removed ones included (`svc workspace list|prune`), by task id order. */
export async function listAllRecords(dir: string): Promise<WorkspaceRecord[]> {
  const [open, removed] = await Promise.all([listRecordsAt(dir), listRecordsAt(join(dir, REMOVED))]);
  const ids = new Set(open.map((record) => record.taskId));
  return [...open, ...removed.filter((record) => !ids.has(record.taskId))].sort((a, b) =>
    a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0,
  );
}

/**
 * Records that a worktree was removed: the record moves to `removed/` (so the cleanup's sweep reads
 * only the open ones) and stays, naming the branch svc made, until `svc workspace prune`.
 */
export async function markRemoved(
  dir: string,
  record: WorkspaceRecord,
  removed: { at: string; reason: string },
): Promise<void> {
  await writeRecord(dir, { ...record, kept: undefined, removed: { at: removed.at, reason: removed.reason } });
  await unlinkQuietly(join(dir, `${record.taskId}.json`));
}

/** Forgets a record, removed or not (its branch was deleted, or never made). */
export async function deleteRecord(dir: string, taskId: string): Promise<void> {
  await unlinkQuietly(join(dir, `${taskId}.json`));
  await unlinkQuietly(join(dir, REMOVED, `${taskId}.json`));
}

// --- internal ---

/** The folder of the records of removed worktrees, inside the records' folder. */
const REMOVED = 'removed';

async function readRecordAt(dir: string, taskId: string): Promise<WorkspaceRecord | null> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, `${taskId}.json`), 'utf8')) as Partial<WorkspaceRecord>;
    return typeof parsed.path === 'string' && typeof parsed.repo === 'string' && parsed.taskId === taskId
      ? (parsed as WorkspaceRecord)
      : null;
  } catch {
    return null;
  }
}

async function listRecordsAt(dir: string): Promise<WorkspaceRecord[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort();
  const records = await Promise.all(names.map((name) => readRecordAt(dir, name.slice(0, -5))));
  return records.filter((record): record is WorkspaceRecord => record !== null);
}

async function unlinkQuietly(path: string): Promise<void> {
  await unlink(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}
