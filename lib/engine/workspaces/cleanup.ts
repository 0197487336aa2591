import { hostname } from 'node:os';
import type { Status } from '../../core/status.js';
import type { Store } from '../../store/commit/store.js';
import { GitError, removeWorktree, worktreeState } from '../../workspace/git.js';
import { findLinkOnTheWay } from '../../workspace/links.js';
import {
  listRecords,
  markRemoved,
  readAnyRecord,
  readRecord,
  writeRecord,
  type WorkspaceRecord,
} from '../../workspace/records.js';
import { formatRemoval } from '../../workspace/removed.js';
import { describeError } from '../../core/errors.js';

/** What the cleanup works with. */
export interface WorkspaceCleanupOptions {
  store: Store;
  log: (line: string) => void;
  /** This host: only the worktrees made here are looked at. */
  host?: string | undefined;
  /** A task's status as the daemon's index knows it: a sweep reads only the tasks it says ended (or does not know). */
  statusOf?: (taskId: string) => Status | undefined;
  /**
   * Whether a run of the task is still alive (ending, or finishing after it handed the task on): its worktree is
   * removed once it is gone.
   */
  isRunAlive?: (taskId: string) => boolean;
}

/** Removes the worktrees of ended tasks: `request` one task, `sweep` every record. */
export interface WorkspaceCleanup {
  request(taskId: string): void;
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/**
 * At `done` or `cancelled` (docs/workspaces.md), a worktree svc created (a record under
 * `data/workspaces/`) is removed with `git worktree remove` when it has no uncommitted changes;
 * its branch stays. A dirty one is kept, logged once and marked kept (listed by `svc doctor`).
 * A worktree without a record (made by hand, or the parent's) is never touched.
 */
export function startWorkspaceCleanup(options: WorkspaceCleanupOptions): WorkspaceCleanup {
  const host = options.host ?? hostname();
  const pending = new Set<Promise<void>>();
  /**
   * One cleanup per task at a time (a request and a sweep would both keep a dirty worktree and log it twice); one asked
   * meanwhile runs after it.
   */
  const running = new Map<string, Promise<void>>();
  let closed = false;
  const clean = (taskId: string, record?: WorkspaceRecord | null): Promise<void> => {
    if (closed) return Promise.resolve();
    const before = running.get(taskId);
    const run = (before ?? Promise.resolve())
      .then(() => cleanOne(options, host, { taskId, known: before ? null : record }))
      .catch((err: unknown) => options.log(`cleanup of the worktree of ${taskId} failed: ${describeError(err)}`));
    running.set(taskId, run);
    pending.add(run);
    void run.finally(() => {
      pending.delete(run);
      if (running.get(taskId) === run) running.delete(taskId);
    });
    return run;
  };
  return {
    request: (taskId) => void clean(taskId),
    async sweep() {
      const records = await listRecords(options.store.paths.workspaces);
      const ended = (id: string) => ['done', 'cancelled', undefined].includes(options.statusOf?.(id));
      await Promise.all(
        records
          .filter((record) => !record.kept && !record.removed && ended(record.taskId))
          .map((record) => clean(record.taskId, record)),
      );
    },
    async close() {
      closed = true;
      await Promise.allSettled([...pending]);
    },
  };
}

/**
 * Removes a worktree svc created for a task, the branch kept; `force` also drops uncommitted changes. Returns what it
 * did.
 */
export async function removeTaskWorktree(
  store: Store,
  taskId: string,
  options: { force: boolean },
): Promise<'removed' | 'missing'> {
  const { force } = options;
  const record = await readAnyRecord(store.paths.workspaces, taskId);
  if (!record)
    throw new GitError(
      `svc did not create a worktree for ${taskId} (no record under ` +
        `data/workspaces/): it never removes one it did not create`,
    );
  if (record.removed) {
    if (record.removed.reason)
      throw new GitError(
        `the worktree of ${taskId} at ${record.path} was already ` +
          formatRemoval({
            path: record.path,
            branch: record.branch,
            at: record.removed.at,
            reason: record.removed.reason,
          }),
      );
    return 'missing';
  }
  const link = await findLinkOnTheWay(record.path, record.root);
  if (link) throw new GitError(link);
  const state = await worktreeState(record.repo, record.path);
  if (state === 'dirty' && !force)
    throw new GitError(`${record.path} has uncommitted changes: commit them, or pass --force to drop them`);
  if (state !== 'missing') await removeWorktree(record.repo, record.path, { force, root: record.root });
  await markRemoved(store.paths.workspaces, record, {
    at: store.clock().toISOString(),
    reason: `svc task workspace --remove${force ? ' --force' : ''}`,
  });
  await store.events.record(store.clock(), [
    {
      type: 'workspace.removed',
      taskId,
      actor: 'operator',
      payload: { path: record.path, branch: record.branch, forced: force },
    },
  ]);
  return state === 'missing' ? 'missing' : 'removed';
}

// --- internal ---

/** Cleans the worktree of task `which.taskId` (`which.known`: its record, when already read). */
async function cleanOne(
  options: WorkspaceCleanupOptions,
  host: string,
  which: { taskId: string; known?: WorkspaceRecord | null },
): Promise<void> {
  const { taskId, known } = which;
  const { store, log } = options;
  const record = known ?? (await readRecord(store.paths.workspaces, taskId));
  if (!record || record.host !== host || record.kept || record.removed) return;
  const task = await store.get(taskId).catch(() => null);
  if (task?.status !== 'done' && task?.status !== 'cancelled') return;
  if (options.isRunAlive?.(taskId)) return; // asked again when the run is gone (and on each sweep)
  // a subtask works in it (routing.workspace: parent): a later sweep looks again
  if (await isInUse(store, record)) return;
  const link = await findLinkOnTheWay(record.path, record.root);
  if (link) return keep(options, record, `${link}, when the task was ${task.status}`);
  const state = await worktreeState(record.repo, record.path);
  if (state === 'dirty') return keep(options, record, `uncommitted changes when the task was ${task.status}`);
  if (state === 'clean') await removeWorktree(record.repo, record.path, { root: record.root });
  const removedAt = store.clock();
  await markRemoved(store.paths.workspaces, record, { at: removedAt.toISOString(), reason: `task ${task.status}` });
  log(`removed the worktree of ${taskId} at ${record.path} (${task.status}); branch ${record.branch} is kept`);
  await store.events.record(removedAt, [
    {
      type: 'workspace.removed',
      taskId,
      actor: 'system',
      payload: { path: record.path, branch: record.branch, existed: state === 'clean' },
    },
  ]);
}

/** Marks a worktree kept (never removed by a sweep), logs it once and records `workspace.kept`. */
async function keep(options: WorkspaceCleanupOptions, record: WorkspaceRecord, reason: string): Promise<void> {
  const { store, log } = options;
  const taskId = record.taskId;
  await writeRecord(store.paths.workspaces, { ...record, kept: { reason, at: store.clock().toISOString() } });
  log(
    `kept the worktree of ${taskId} at ${record.path}: ${reason} (svc doctor ` +
      `lists it; svc task workspace ${taskId} --remove [--force] removes it)`,
  );
  const short = reason.startsWith('uncommitted') ? 'uncommitted changes' : 'symbolic link';
  await store.events.record(store.clock(), [
    {
      type: 'workspace.kept',
      taskId,
      actor: 'system',
      payload: { path: record.path, branch: record.branch, reason: short },
    },
  ]);
}

/**
 * Whether a task not yet ended works in this worktree, or will (a subtask with `routing.workspace: parent` not yet
 * dispatched).
 */
async function isInUse(store: Store, record: WorkspaceRecord): Promise<boolean> {
  const { tasks } = await store.list(['backlog', 'ready', 'in-progress', 'blocked']);
  return tasks.some(
    ({ task }) =>
      task.workspace?.path === record.path || (task.parentId === record.taskId && task.routing.workspace === 'parent'),
  );
}
