import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fillTemplate, toRootId } from '../../core/branch-template.js';
import { SpawnError } from '../../core/spawn.js';
import type { TaskWorkspace } from '../../core/task.js';
import type { OrgChart } from '../../org/schema.js';
import { toWorktreeRoot } from '../../org/workspaces.js';
import { attachWorkspace } from '../../store/changes/workspace.js';
import type { Store } from '../../store/commit/store.js';
import type { StoredTask } from '../../store/disk/task-file.js';
import { addWorktree, GitError, removeWorktree, runGit } from '../../workspace/git.js';
import { findTaskWorktreeLink } from '../../workspace/links.js';
import { deleteRecord, writeRecord } from '../../workspace/records.js';
import { describeError } from '../../core/errors.js';

/** What a dispatch knows when it prepares the task's worktree. */
export interface WorkspaceStepOptions {
  store: Store;
  org: OrgChart | null;
  /** The agent the task is dispatched to. */
  agent: string;
  sessionId: string;
  /** This host (recorded in the workspace; only its daemon dispatches the task again). */
  host?: string | undefined;
}

/**
 * The worktree a dispatch runs in (docs/workspaces.md), or null when the task has no workspace:
 * the one recorded in the task (every later dispatch), the parent's (`routing.workspace: parent`),
 * or a new one made now (`git worktree add`), recorded under `data/workspaces/` and then in the
 * task's frontmatter under its lease. Any failure is a `SpawnError` with git's message, and leaves
 * no worktree recorded.
 */
export async function prepareWorkspace(
  options: WorkspaceStepOptions,
  leased: StoredTask,
): Promise<TaskWorkspace | null> {
  const { task } = leased;
  const host = options.host ?? hostname();
  if (task.workspace) return assertUsable(options.store, { taskId: task.id, workspace: task.workspace }, host);
  const name = task.routing.workspace ?? options.org?.agents.find((a) => a.id === options.agent)?.workspace;
  if (!name) return null;
  if (name === 'parent')
    return record(options, { taskId: task.id, workspace: await parentWorkspace(options.store, leased) }, null);
  const def = options.org?.aof.workspaces[name];
  if (!def)
    throw new SpawnError(
      'workspace_failed',
      `workspace ${JSON.stringify(name)} is not under aof.workspaces of the org chart`,
    );
  const values = { id: task.id, title: task.title, root: toRootId(options.store.paths.root) };
  const root = toWorktreeRoot(def, options.store.paths.root);
  const path = join(root, fillTemplate(def.dir, values));
  const made = await addWorktree({
    repo: def.repo,
    path,
    branch: fillTemplate(def.branch, values),
    base: def.base,
    root,
  }).catch((err: unknown) => {
    const message = describeError(err);
    const template = message.includes('all exist already')
      ? ` (aof.workspaces.${name}.branch is ${JSON.stringify(def.branch)})`
      : '';
    throw new SpawnError('workspace_failed', `${message}${template}`, { cause: err });
  });
  const workspace: TaskWorkspace = { name, path: made.path, branch: made.branch, base: made.base, host };
  await writeRecord(options.store.paths.workspaces, {
    taskId: task.id,
    repo: def.repo,
    ...workspace,
    root,
    createdAt: options.store.clock().toISOString(),
  });
  return record(options, { taskId: task.id, workspace }, { repo: def.repo, root });
}

// --- internal ---

/** A task and the worktree it works in. */
interface TaskWorktree {
  taskId: string;
  workspace: TaskWorkspace;
}

/**
 * The recorded worktree, when it is on this host, a folder, and not reached through a symbolic link (under the root svc
 * made it in).
 */
async function assertUsable(store: Store, of: TaskWorktree, host: string): Promise<TaskWorkspace> {
  const { taskId, workspace } = of;
  if (workspace.host !== host)
    throw new SpawnError('workspace_elsewhere', `the worktree of this task is on host ${workspace.host}, not ${host}`);
  const link = await findTaskWorktreeLink(store.paths.workspaces, taskId, workspace.path);
  if (link) throw new SpawnError('workspace_failed', link);
  try {
    if (statSync(workspace.path).isDirectory()) return workspace;
  } catch {
    // reported below
  }
  throw new SpawnError(
    'workspace_failed',
    `the task's worktree ${workspace.path} is gone (removed by hand?); ` +
      `restore it with git worktree add, or clear the task's workspace field`,
  );
}

async function parentWorkspace(store: Store, leased: StoredTask): Promise<TaskWorkspace> {
  const parentId = leased.task.parentId;
  if (!parentId) throw new SpawnError('workspace_failed', 'routing.workspace is "parent" but the task has no parentId');
  const parent = await store.get(parentId).catch(() => null);
  if (!parent?.task.workspace)
    throw new SpawnError(
      'workspace_failed',
      `routing.workspace is "parent" but parent ${parentId} has no worktree (yet)`,
    );
  const link = await findTaskWorktreeLink(store.paths.workspaces, parent.task.id, parent.task.workspace.path);
  if (link) throw new SpawnError('workspace_failed', link);
  return parent.task.workspace;
}

/** Writes the workspace into the task under its lease; if the lease is gone, undoes a worktree made for it. */
async function record(
  options: WorkspaceStepOptions,
  of: TaskWorktree,
  madeIn: { repo: string; root: string } | null,
): Promise<TaskWorkspace> {
  const { taskId, workspace } = of;
  const result = await attachWorkspace(options.store, {
    taskId,
    sessionId: options.sessionId,
    workspace,
    created: madeIn !== null,
  }).catch((err: unknown) => err as Error);
  if (!(result instanceof Error) && result.changed) return workspace;
  if (madeIn) await undo(options.store.paths.workspaces, madeIn, of);
  throw new SpawnError(
    'workspace_failed',
    `the worktree could not be recorded in ${taskId}: ` +
      `${result instanceof Error ? result.message : 'its lease ended meanwhile'}`,
  );
}

async function undo(dir: string, made: { repo: string; root: string }, of: TaskWorktree): Promise<void> {
  const { taskId, workspace } = of;
  await removeWorktree(made.repo, workspace.path, { force: true, root: made.root }).catch(
    (err: unknown) => err instanceof GitError || Promise.reject(err),
  );
  await runGit(made.repo, ['branch', '-D', workspace.branch]);
  await deleteRecord(dir, taskId);
}
