import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDir, writeAtomic } from '../fs/atomic.js';

/**
 * What svc records of a worktree it created (`data/workspaces/<task id>.json`). Only a worktree
 * with a record is ever removed by svc, and only a branch with one is ever deleted
 * (`svc workspace prune`): one made by hand, or named in a task's frontmatter by hand, has none.
 * The record stays after the worktree is removed (`removed`), naming the branch svc made, until
 * `svc workspace prune` deletes that branch.
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
  /** Set once the worktree was removed (the branch stays): when. */
  removed?: { at: string } | undefined;
}

/** Writes (or replaces) the record of a task's worktree. */
export async function writeRecord(dir: string, record: WorkspaceRecord): Promise<void> {
  await ensureDir(dir);
  await writeAtomic(join(dir, `${record.taskId}.json`), `${JSON.stringify(record, null, 2)}\n`);
}

/** The record of a task's worktree, or null when svc did not create one. */
export async function readRecord(dir: string, taskId: string): Promise<WorkspaceRecord | null> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, `${taskId}.json`), 'utf8')) as Partial<WorkspaceRecord>;
    return typeof parsed.path === 'string' && typeof parsed.repo === 'string' && parsed.taskId === taskId ? (parsed as WorkspaceRecord) : null;
  } catch {
    return null;
  }
}

/** Every record, by task id order. */
export async function listRecords(dir: string): Promise<WorkspaceRecord[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort();
  const records = await Promise.all(names.map((name) => readRecord(dir, name.slice(0, -5))));
  return records.filter((record): record is WorkspaceRecord => record !== null);
}

/** Records that a worktree was removed: the record stays, naming the branch svc made. */
export async function markRemoved(dir: string, record: WorkspaceRecord, at: string): Promise<void> {
  await writeRecord(dir, { ...record, kept: undefined, removed: { at } });
}

/** Forgets a record (its branch was deleted, or never made). */
export async function deleteRecord(dir: string, taskId: string): Promise<void> {
  await unlink(join(dir, `${taskId}.json`)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}
