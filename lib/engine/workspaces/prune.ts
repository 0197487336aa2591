import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { describeError, isSvcError } from '../../core/errors.js';
import type { Status } from '../../core/status.js';
import type { Store } from '../../store/commit/store.js';
import { deleteMergedBranch, readBranchState } from '../../workspace/branches.js';
import { removeWorktree, worktreeState } from '../../workspace/git.js';
import { findLinkOnTheWay } from '../../workspace/links.js';
import { deleteRecord, listAllRecords, markRemoved, type WorkspaceRecord } from '../../workspace/records.js';

/** A worktree svc made and its branch, as `svc workspace list` shows them. */
export interface WorkspaceRow {
  taskId: string;
  /** The task's status; `gone` when it is no longer under tasks/ (archived). */
  task: Status | 'gone';
  name: string;
  repo: string;
  path: string;
  branch: string;
  base: string;
  host: string;
  /**
   * `removed` by svc, `missing` (gone by hand), `link` (a symbolic link on its way), `elsewhere` (another host's: not
   * looked at).
   */
  worktree: 'clean' | 'dirty' | 'missing' | 'removed' | 'link' | 'elsewhere';
  /** Merged into its base, not, deleted, or `unknown` (another host's, or its repository is not there). */
  branchState: 'merged' | 'unmerged' | 'gone' | 'unknown';
  kept?: string | undefined;
}

/** What `svc workspace prune` does: `merged` also deletes branches merged into their base; `dryRun` only says. */
export interface PruneOptions {
  merged: boolean;
  dryRun: boolean;
  host?: string | undefined;
}

/** One step of a prune: done, or (dry run) what would be done. */
export interface PruneStep {
  taskId: string;
  action: 'remove-worktree' | 'delete-branch' | 'forget';
  path: string;
  branch: string;
}

/** What a prune did, and what it left and why. */
export interface PruneResult {
  dryRun: boolean;
  steps: PruneStep[];
  left: { taskId: string; reason: string }[];
}

/** Every worktree and branch svc made (a record under data/workspaces/), with their state now. */
export async function listWorkspaces(store: Store, host = hostname()): Promise<WorkspaceRow[]> {
  const records = await listAllRecords(store.paths.workspaces);
  return Promise.all(
    records.map(async (record) => {
      const here = record.host === host && (await isDirectory(record.repo));
      const branch = here ? await readBranchState(record.repo, record.branch, record.base) : null;
      return {
        taskId: record.taskId,
        task: await statusOf(store, record.taskId),
        name: record.name,
        repo: record.repo,
        path: record.path,
        branch: record.branch,
        base: record.base,
        host: record.host,
        worktree: await toWorktreeState(record, host),
        kept: record.kept?.reason,
        branchState: !branch ? 'unknown' : !branch.exists ? 'gone' : branch.merged ? 'merged' : 'unmerged',
      };
    }),
  );
}

/**
 * Housekeeping of what svc made, on this host, for tasks that ended (done, cancelled, archived):
 * removes their clean worktrees, forgets a branch deleted by hand, and with `merged` deletes a
 * branch whose commits are all in its base. Never touches a worktree or branch svc did not make
 * (no record), a dirty worktree, one a task still works in, or an unmerged branch.
 */
export async function pruneWorkspaces(store: Store, options: PruneOptions): Promise<PruneResult> {
  const host = options.host ?? hostname();
  const result: PruneResult = { dryRun: options.dryRun, steps: [], left: [] };
  const open = (await store.list(['backlog', 'ready', 'in-progress', 'blocked'])).tasks;
  for (const record of await listAllRecords(store.paths.workspaces)) {
    if (record.host !== host) continue;
    const why = await pruneOne(store, record, {
      ...options,
      user: open.find(
        ({ task }) =>
          task.workspace?.path === record.path ||
          (task.parentId === record.taskId && task.routing.workspace === 'parent'),
      )?.task.id,
      steps: result.steps,
    }).catch((err: unknown) => describeError(err));
    if (why) result.left.push({ taskId: record.taskId, reason: why });
  }
  return result;
}

// --- internal ---

/** Prunes one record, each step taken added to `options.steps`; returns why something was left, or null. */
async function pruneOne(
  store: Store,
  record: WorkspaceRecord,
  options: PruneOptions & { user: string | undefined; steps: PruneStep[] },
): Promise<string | null> {
  const { steps } = options;
  const status = await statusOf(store, record.taskId);
  if (status !== 'done' && status !== 'cancelled' && status !== 'gone') return `its task is ${status}`;
  if (!(await isDirectory(record.repo))) return `the repository ${record.repo} is not there`;
  const step = (action: PruneStep['action']) =>
    steps.push({ taskId: record.taskId, action, path: record.path, branch: record.branch });
  const at = store.clock().toISOString();
  if (!record.removed) {
    if (options.user) return `task ${options.user} works in ${record.path}`;
    const state = await toWorktreeState(record, options.host ?? hostname());
    if (state === 'link') return (await findLinkOnTheWay(record.path, record.root)) ?? 'a symbolic link';
    if (state === 'dirty')
      return `${record.path} has uncommitted changes (svc task workspace ${record.taskId} --remove --force drops them)`;
    step('remove-worktree');
    if (!options.dryRun) {
      if (state === 'clean') await removeWorktree(record.repo, record.path, { root: record.root });
      await markRemoved(store.paths.workspaces, record, { at, reason: 'svc workspace prune' });
      await store.events.record(store.clock(), [
        {
          type: 'workspace.removed',
          taskId: record.taskId,
          actor: 'operator',
          payload: { path: record.path, branch: record.branch, existed: state === 'clean', pruned: true },
        },
      ]);
    }
  }
  const branch = await readBranchState(record.repo, record.branch, record.base);
  if (branch.exists && !branch.merged)
    return options.merged ? `branch ${record.branch} has commits that are not in ${record.base}` : null;
  if (branch.exists && !options.merged) return null;
  if (branch.exists) {
    step('delete-branch');
    if (!options.dryRun) {
      await deleteMergedBranch(record.repo, record.branch, branch.sha);
      await store.events.record(store.clock(), [
        {
          type: 'workspace.branch_deleted',
          taskId: record.taskId,
          actor: 'operator',
          payload: { repo: record.repo, branch: record.branch, base: record.base, sha: branch.sha },
        },
      ]);
    }
  }
  step('forget');
  if (!options.dryRun) await deleteRecord(store.paths.workspaces, record.taskId);
  return null;
}

async function toWorktreeState(record: WorkspaceRecord, host: string): Promise<WorkspaceRow['worktree']> {
  if (record.removed) return 'removed';
  if (record.host !== host) return 'elsewhere';
  if (await findLinkOnTheWay(record.path, record.root)) return 'link';
  return worktreeState(record.repo, record.path);
}

async function statusOf(store: Store, taskId: string): Promise<Status | 'gone'> {
  return store.get(taskId).then(
    (found) => found.status,
    (err: unknown) => (isSvcError(err, 'not_found') ? 'gone' : Promise.reject(err)),
  );
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() === true;
}
