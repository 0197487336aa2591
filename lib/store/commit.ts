import { lstatSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { SvcError } from '../core/errors.js';
import { assertTransition, STATUSES, type Cause, type Status } from '../core/status.js';
import { parseTask, type Task } from '../core/task.js';
import { ensureDir, unlinkDurable } from '../fs/atomic.js';
import { MAX_FILE_BYTES } from '../fs/frontmatter.js';
import { readRegularFileSync, replaceFileDurable } from '../fs/regular-file.js';
import { withLock } from '../fs/lock.js';
import { appendEvents, type EventInput } from './events.js';
import type { Paths } from './paths.js';
import { isSameStamp, readTaskFile, renderTask, type StoredTask } from './task-file.js';

/** What a change function asks for: the new frontmatter and body, and the status to end in. */
export interface Change {
  task: Task;
  body: string;
  status: Status;
  cause?: Cause;
  reason?: string;
  /** Set `updatedAt` to now (default). Lease renewals keep it, so SLA durations run on. */
  touch?: boolean;
  /** Further events, appended after the transition event once the lock is released. */
  events?: EventInput[];
}

/** Builds a change from the task as re-read under the lock; null means nothing to do. */
export type ChangeFn = (current: StoredTask) => Change | null | Promise<Change | null>;

/** Who commits, and when. */
export interface CommitOptions {
  now: Date;
  actor: string;
  lockWaitMs?: number;
}

/** The outcome of a commit: the task before and after, and whether its status changed. */
export interface CommitResult {
  before: StoredTask;
  after: StoredTask;
  changed: boolean;
  transitioned: boolean;
}

/**
 * The commit protocol (docs/architecture.md, "Commit protocol"): lock, re-read, validate, write atomically into the
 * target directory, unlink the old file only if it is still the one read, release, log.
 */
export async function commitTask(paths: Paths, id: string, change: ChangeFn, options: CommitOptions): Promise<CommitResult> {
  const events: EventInput[] = [];
  const result = await withLock(paths.lockFile(id), { what: id, waitMs: options.lockWaitMs }, async (lock) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await locateTask(paths, id, options.now);
      const wanted = await change(current);
      if (!wanted) return { before: current, after: current, changed: false, transitioned: false };
      const next = toNextTask(current, wanted, options.now);
      const target = paths.taskFile(wanted.status, id);
      const content = renderTask(next, wanted.body);
      lock.assertHeld();
      if (!(await isUnchanged(current))) continue;
      await replaceFileDurable(target, content);
      if (target !== current.path) {
        if (!(await isUnchanged(current))) {
          await unlinkDurable(target);
          continue;
        }
        // No directory fsync here: if a crash loses this unlink, the two copies are told apart by
        // `updatedAt` (the new one wins), by every reader and by reconcile.
        await unlink(current.path);
      }
      events.push(...toEvents(current, wanted, options.actor));
      const after = toStored(target, next, content, wanted.status);
      return { before: current, after, changed: true, transitioned: wanted.status !== current.status };
    }
    throw new SvcError('locked', `${id} kept changing on disk while being written.`, 'Someone is editing the file by hand; retry when they are done.');
  });
  await appendEvents(paths.root, options.now, events);
  return result;
}

/**
 * Finds the one file of `id`, under its lock. A second copy (a crash between write and unlink, or a
 * git merge) is resolved here: the later `updatedAt` wins, the other goes to `data/conflicts/`.
 */
export async function locateTask(paths: Paths, id: string, now: Date): Promise<StoredTask> {
  const found = findTaskFiles(paths, id);
  if (found.length === 0) throw new SvcError('not_found', `Task ${id} does not exist.`, 'List tasks with `svc task list`.');
  if (found.length === 1) return readTaskFile(found[0]!);
  const copies = await Promise.all(found.map((path) => readTaskFile(path).catch((err: unknown) => err as Error)));
  const broken = copies.findIndex((copy) => copy instanceof Error);
  if (broken !== -1) {
    // A copy that does not parse may be a human's edit in progress: never moved, never overwritten.
    throw new SvcError('validation_error', `${id} has another copy that does not parse: ${(copies[broken] as Error).message.split('\n')[0]}`, `Fix or remove ${found[broken]}, then retry (svc doctor lists such files).`);
  }
  const [winner, ...losers] = (copies as StoredTask[]).sort(byNewest);
  for (const loser of losers) await moveToConflicts(paths, loser.path, now);
  return winner!;
}

/**
 * The paths of every copy of `id` in the status directories (normally one). Synchronous on
 * purpose: seven stats of one inode each cost microseconds, seven thread-pool round trips do not.
 */
export function findTaskFiles(paths: Paths, id: string): string[] {
  return STATUSES.map((status) => paths.taskFile(status, id)).filter((path) => lstatSync(path, { throwIfNoEntry: false }) !== undefined);
}

/** Orders copies of one task: later `updatedAt` first, then later file time. */
export function byNewest(a: StoredTask, b: StoredTask): number {
  const byUpdated = Date.parse(b.task.updatedAt) - Date.parse(a.task.updatedAt);
  if (byUpdated !== 0) return byUpdated;
  return a.stamp.mtimeNs === b.stamp.mtimeNs ? 0 : a.stamp.mtimeNs < b.stamp.mtimeNs ? 1 : -1;
}

/** Moves a losing copy into `data/conflicts/` (never deleted silently). */
export async function moveToConflicts(paths: Paths, path: string, now: Date): Promise<string> {
  const name = path.slice(paths.tasks.length + 1).replace(/\//g, '.');
  const target = `${paths.conflicts}/${now.toISOString().replace(/[:.]/g, '-')}.${name}`;
  await ensureDir(paths.conflicts, 0o700);
  await replaceFileDurable(target, readRegularFileSync(path, MAX_FILE_BYTES).text);
  await unlinkDurable(path);
  return target;
}

/**
 * The task just written to `path` (under its lock), without reading it back: once the file is
 * committed, the caller succeeds. A stamp that cannot be taken (the file already moved on) is zero,
 * which only makes a later stamp comparison ask for a re-read.
 */
export function toStored(path: string, task: Task, content: string, status: Status): StoredTask {
  const written = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  const body = content.slice(content.indexOf('\n---\n') + 5).replace(/^\r?\n/, '');
  const stamp = written ? { ino: written.ino, size: written.size, mtimeNs: written.mtimeNs } : { ino: 0n, size: 0n, mtimeNs: 0n };
  return { task, body, path, status, stamp };
}

// --- internal ---

function toNextTask(current: StoredTask, wanted: Change, now: Date): Task {
  const next: Task = { ...wanted.task, status: wanted.status };
  const stamp = now.toISOString();
  if (wanted.status !== current.status) {
    assertTransition(current.task.id, current.status, wanted.status, wanted.cause);
    next.lastTransitionAt = stamp;
  }
  if (current.task.status !== current.status && wanted.status === current.status) next.lastTransitionAt = stamp;
  if (wanted.status !== 'in-progress') delete next.lease;
  if (wanted.touch !== false) next.updatedAt = stamp;
  return parseTask(next, `${current.task.id} (as it would be written)`);
}

function toEvents(current: StoredTask, wanted: Change, actor: string): EventInput[] {
  const id = current.task.id;
  const out: EventInput[] = [];
  if (current.task.status !== current.status) {
    out.push({ type: 'task.transitioned', taskId: id, actor: 'filesystem', payload: { from: current.task.status, to: current.status, reason: 'moved on disk' } });
  }
  if (wanted.status !== current.status) {
    const payload: Record<string, unknown> = { from: current.status, to: wanted.status };
    if (wanted.reason) payload.reason = wanted.reason;
    out.push({ type: 'task.transitioned', taskId: id, actor, payload });
  }
  return out.concat(wanted.events ?? []);
}


async function isUnchanged(current: StoredTask): Promise<boolean> {
  const now = lstatSync(current.path, { bigint: true, throwIfNoEntry: false });
  return now !== undefined && isSameStamp(current.stamp, { ino: now.ino, size: now.size, mtimeNs: now.mtimeNs });
}
