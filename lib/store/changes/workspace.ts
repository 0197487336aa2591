import type { TaskWorkspace } from '../../core/task.js';
import type { CommitResult } from '../commit/protocol.js';
import type { Store } from '../commit/store.js';

/** A worktree to record in a task under the dispatch's lease. */
export interface WorkspaceAttach {
  taskId: string;
  /** The lease the dispatch holds: the workspace is recorded only while it still does. */
  sessionId: string;
  workspace: TaskWorkspace;
  /** Whether the dispatch made the worktree (rather than found it). */
  created: boolean;
}

/**
 * Records a task's worktree (`workspace.attached`, by the scheduler) while the task is still in
 * progress under `sessionId`; `updatedAt` is kept. `changed: false` when the lease is gone.
 */
export function attachWorkspace(store: Store, attach: WorkspaceAttach): Promise<CommitResult> {
  const { taskId, sessionId, workspace, created } = attach;
  return store.commit(
    taskId,
    (current) => {
      if (current.status !== 'in-progress' || current.task.lease?.sessionId !== sessionId) return null;
      return {
        task: { ...current.task, workspace },
        body: current.body,
        status: 'in-progress',
        touch: false,
        events: [{ type: 'workspace.attached', taskId, actor: 'scheduler', payload: { ...workspace, created } }],
      };
    },
    'scheduler',
  );
}
