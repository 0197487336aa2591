import type { Task } from '../../core/task.js';
import type { TaskLocker } from '../../fs/lock/tree-locks.js';
import type { Paths } from '../disk/paths.js';
import { renderTask, type StoredTask } from '../disk/task-file.js';
import { writeBatched, type Fault } from './batch.js';
import { findTaskFiles } from './copies.js';
import { outsideLocker, toStored } from './protocol.js';

/** Options of `createTaskFile`. */
export interface CreateFileOptions {
  /** How long to wait for a held task lock before `locked` (the lock's default otherwise). */
  lockWaitMs?: number;
  /** Refuse an id that has a file in any status directory (an id given, not freshly allocated). */
  unseen?: boolean;
  /** How the task's lock is taken (the store's); a lock directory by default. */
  taskLock?: TaskLocker;
  /** Fault injection for crash tests (see `commitTask`); the detail of a create's points is `create`. */
  fault?: Fault;
}

/**
 * The one writer of a new task file: `tasks/<status>/<id>.md` created exclusively (never over
 * another file) under the task's lock, in the batch of its event-loop turn (`writeBatched`). Returns the
 * task as written, or null when the id is taken.
 * The file is not read back after the lock is released: the scheduler may move it at once (another host too).
 */
export async function createTaskFile(
  paths: Paths,
  { task, body }: { task: Task; body: string },
  options: CreateFileOptions = {},
): Promise<StoredTask | null> {
  const path = paths.taskFile(task.status, task.id);
  const content = renderTask(task, body);
  const lock = { what: task.id, ...(options.lockWaitMs !== undefined ? { waitMs: options.lockWaitMs } : {}) };
  return (options.taskLock ?? outsideLocker(paths))(paths.lockFile(task.id), lock, async () => {
    if (options.unseen && (await findTaskFiles(paths, task.id)).length > 0) return null;
    const written = await writeBatched({ path, content, exclusive: true, fault: options.fault, cause: 'create' });
    return written ? toStored(path, task, { content, status: task.status }) : null;
  });
}
