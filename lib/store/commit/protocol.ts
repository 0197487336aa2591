import { lstatSync, unlinkSync } from 'node:fs';
import { lstat, unlink } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { isGone, SvcError } from '../../core/errors.js';
import type { EventPayloads } from '../../core/events.js';
import { assertTransition, type Cause, type Status } from '../../core/status.js';
import type { Task } from '../../core/task.js';
import { ensureDir, unlinkDurable } from '../../fs/atomic.js';
import { MAX_FILE_BYTES } from '../../fs/frontmatter.js';
import { readRegularFileSync } from '../../fs/regular-file.js';
import { replaceFileDurable } from '../../fs/replace-file.js';
import { withLock } from '../../fs/lock/lock.js';
import type { TaskLocker } from '../../fs/lock/tree-locks.js';
import { isNetworkDir } from '../../fs/network-fs.js';
import { parseChangedTask } from './changed-task.js';
import { writeBatched, type Fault } from './batch.js';
import { confirmCopies } from './confirm-copies.js';
import type { EventInput, EventLog } from '../events/log.js';
import type { Paths } from '../disk/paths.js';
import { isSameStamp, renderTask, type StoredTask } from '../disk/task-file.js';
import { readCopies } from './copies.js';

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

/**
 * Builds a change from the task as re-read under the lock; null means nothing to do. It must not mutate `current`:
 * it copies what it changes (fields it keeps are not validated again, see `parseChangedTask`).
 */
export type ChangeFn = (current: StoredTask) => Change | null | Promise<Change | null>;

/** Who commits, and when. */
export interface CommitOptions {
  now: Date;
  actor: string;
  lockWaitMs?: number;
  /** Where the events go once the change is committed (a failure to append them is not the commit's). */
  events: EventLog;
  /** Fault injection for crash tests: called at each step of the protocol with the change's cause. */
  fault?: Fault;
  /** How the task's lock is taken (the store's: memory locks in the daemon); a lock directory by default. */
  taskLock?: TaskLocker;
  /** Where the task is believed to be, asked at each re-read (`StoreOptions.whereIs`). */
  whereIs?: ((id: string) => Status | undefined) | undefined;
}

export type { Fault } from './batch.js';

/** The outcome of a commit: the task before and after, and whether its status changed. */
export interface CommitResult {
  before: StoredTask;
  after: StoredTask;
  changed: boolean;
  transitioned: boolean;
}

/**
 * The commit protocol (docs/architecture.md, "Commit protocol"): lock, re-read, validate, write atomically into the
 * target directory, unlink the old file only if it is still the one read, release, log. Once the file
 * is written the result is success: the events are recorded by a log that never rejects.
 */
export async function commitTask(
  paths: Paths,
  id: string,
  options: CommitOptions & { change: ChangeFn },
): Promise<CommitResult> {
  const { change } = options;
  const events: EventInput[] = [];
  const conflicts: string[] = [];
  let cause: string | undefined;
  const lockTask = options.taskLock ?? outsideLocker(paths);
  const result = await lockTask(paths.lockFile(id), { what: id, waitMs: options.lockWaitMs }, async (lock) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await locateTask(paths, id, { now: options.now, moved: conflicts, hint: options.whereIs?.(id) });
      const wanted = await change(current);
      if (!wanted) return { before: current, after: current, changed: false, transitioned: false };
      const next = toNextTask(current, wanted, options.now);
      const target = paths.taskFile(wanted.status, id);
      const content = renderTask(next, wanted.body);
      lock.assertHeld();
      if (!(await isUnchanged(current))) continue;
      // Written with the other changes of this event-loop turn, answered once their batch is on disk.
      await writeBatched({ path: target, content, fault: options.fault, cause: wanted.cause });
      options.fault?.('commit.written', wanted.cause);
      if (target !== current.path) {
        if (!(await isUnchanged(current))) {
          await unlinkDurable(target);
          continue;
        }
        // No directory fsync here: if a crash loses this unlink, the two copies are told apart by
        // `updatedAt` (the new one wins), by every reader and by reconcile.
        if (isNetworkDir(dirname(current.path))) await unlink(current.path);
        else unlinkSync(current.path); // no disk block waited on: synchronous, as the other such calls
        options.fault?.('commit.unlinked', wanted.cause);
      }
      events.push(...toEvents(current, wanted, options.actor));
      cause = wanted.cause;
      const after = toStored(target, next, { content, status: wanted.status });
      return { before: current, after, changed: true, transitioned: wanted.status !== current.status };
    }
    throw new SvcError(
      'locked',
      `${id} kept changing on disk while being written.`,
      'Someone is editing the file by hand; retry when they are done.',
    );
  });
  if (result.changed) options.fault?.('commit.committed', cause);
  if (conflicts.length)
    events.unshift({
      type: 'recovery_action',
      taskId: id,
      actor: options.actor,
      payload: { action: 'duplicate_resolved', details: { kept: relative(paths.root, result.before.path), conflicts } },
    });
  await options.events.record(options.now, events);
  return result;
}

/**
 * Finds the one file of `id`, under its lock. A second copy (a crash between write and unlink, or a
 * git merge) is resolved here: the later `updatedAt` wins, the other goes to `data/conflicts/`.
 * Only what opens counts: a name a network filesystem still lists from its cache, but that is gone,
 * is no copy; and on a network filesystem two copies count only if a second look past the
 * filesystem's staleness bound still finds both (`confirmCopies`): nothing is repaired on a cached look.
 * Each copy moved away is added to `moved` (its new path, relative to the root). A `hint` (the daemon's index: the
 * one directory it saw the task in) is looked at first, and on a local disk the file found there is the answer
 * (docs/architecture.md, "Commit protocol": why a hint is safe under the lock, and when it is not given).
 */
export async function locateTask(
  paths: Paths,
  id: string,
  { now, moved = [], hint }: { now: Date; moved?: string[]; hint?: Status | undefined },
): Promise<StoredTask> {
  const copies = await confirmCopies(paths.tasks, id, {
    first: await readCopies(paths, id, { hint }),
    look: () => readCopies(paths, id),
    inoOf: ({ copy }) => (copy instanceof Error ? undefined : copy.stamp.ino),
  });
  const broken = copies.find(({ copy }) => copy instanceof Error);
  if (broken && copies.length === 1) throw broken.copy;
  if (broken) {
    // A copy that does not parse may be a human's edit in progress: never moved, never overwritten.
    throw new SvcError(
      'validation_error',
      `${id} has another copy that does not parse: ${(broken.copy as Error).message.split('\n')[0]}`,
      `Fix or remove ${broken.path}, then retry (svc doctor lists such files).`,
    );
  }
  const [winner, ...losers] = copies.map(({ copy }) => copy as StoredTask).sort(byNewest);
  for (const loser of losers) moved.push(relative(paths.root, await moveToConflicts(paths, loser.path, now)));
  return winner!;
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
export function toStored(
  path: string,
  task: Task,
  { content, status }: { content: string; status: Status },
): StoredTask {
  const written = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  const body = content.slice(content.indexOf('\n---\n') + 5).replace(/^\r?\n/, '');
  const stamp = written
    ? { ino: written.ino, size: written.size, mtimeNs: written.mtimeNs }
    : { ino: 0n, size: 0n, mtimeNs: 0n };
  return { task, body, path, status, stamp };
}

/**
 * The task lock of a writer outside the daemon: the task's lock directory, then the daemon's changes
 * of that task in flight waited for when a daemon of this host changes tasks under memory locks.
 */
export function outsideLocker(paths: Paths): TaskLocker {
  return (lockPath, options, fn) => withLock(lockPath, { ...options, fence: true }, fn);
}

// --- internal ---

function toNextTask(current: StoredTask, wanted: Change, now: Date): Task {
  const next: Task = { ...wanted.task, status: wanted.status };
  const stamp = now.toISOString();
  if (wanted.status !== current.status) {
    assertTransition(current.task.id, { from: current.status, to: wanted.status }, wanted.cause);
    next.lastTransitionAt = stamp;
  }
  if (current.task.status !== current.status && wanted.status === current.status) next.lastTransitionAt = stamp;
  if (wanted.status !== 'in-progress') delete next.lease;
  if (wanted.touch !== false) next.updatedAt = stamp;
  // one schema pass, over what the change altered: the rest was validated when `current` was read
  return parseChangedTask(current.task, next, `${current.task.id} (as it would be written)`);
}

function toEvents(current: StoredTask, wanted: Change, actor: string): EventInput[] {
  const id = current.task.id;
  const out: EventInput[] = [];
  if (current.task.status !== current.status) {
    out.push({
      type: 'task.transitioned',
      taskId: id,
      actor: 'filesystem',
      payload: { from: current.task.status, to: current.status, reason: 'moved on disk' },
    });
  }
  if (wanted.status !== current.status) {
    const payload: EventPayloads['task.transitioned'] = { from: current.status, to: wanted.status };
    if (wanted.reason) payload.reason = wanted.reason;
    out.push({ type: 'task.transitioned', taskId: id, actor, payload });
  }
  return out.concat(wanted.events ?? []);
}

async function isUnchanged(current: StoredTask): Promise<boolean> {
  const now = isNetworkDir(dirname(current.path))
    ? await lstat(current.path, { bigint: true }).catch((err: unknown) =>
        isGone(err) ? undefined : Promise.reject(err),
      )
    : lstatSync(current.path, { bigint: true, throwIfNoEntry: false });
  return now !== undefined && isSameStamp(current.stamp, { ino: now.ino, size: now.size, mtimeNs: now.mtimeNs });
}
