import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDir, writeAtomic } from '../fs/atomic.js';

/**
 * What svc records of a worktree it created (`data/workspaces/<task id>.json`). Only a worktree
 * with a record is ever removed by svc: one made by hand, or named in a task's frontmatter by
 * hand, has none.
 */
export interface WorkspaceRecord {
  taskId: string;
  name: string;
  repo: string;
  path: string;
  branch: string;
  base: string;
  host: string;
  createdAt: string;
  /** Set when the task ended but the worktree was kept (uncommitted changes): why, and since when. */
  kept?: { reason: string; at: string } | undefined;
  /** Set once svc removed it: the record then lives under `removed/` (see `workspace/removed.ts`). */
  removed?: { reason: string; at: string } | undefined;
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

/**
 * Keeps the record of a worktree svc just removed under `removedDir`, with when and why, and
 * forgets it in `dir`: the cleanup no longer looks at it, and `svc task workspace` can say what happened.
 */
export async function recordRemoval(dir: string, removedDir: string, record: WorkspaceRecord, removed: { reason: string; at: string }): Promise<void> {
  const { kept: _kept, ...rest } = record;
  await writeRecord(removedDir, { ...rest, removed });
  await deleteRecord(dir, record.taskId);
}

/** Forgets a record (its worktree was removed). */
export async function deleteRecord(dir: string, taskId: string): Promise<void> {
  await unlink(join(dir, `${taskId}.json`)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}
