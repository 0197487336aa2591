import { STATUSES } from '../../../lib/core/status.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { listTasks } from '../../../lib/store/commit/store.js';
import { createTaskIndex, type TaskIndex, type TaskIndexOptions } from '../../../lib/store/index/tasks.js';
import { cleanRoots } from '../../helpers/root.js';

// The set-up of the index tests (tasks.test.ts, tasks-changes.test.ts): indexes opened and closed, views to compare.
// The index (lib/store/index/tasks.ts) is the daemon's view of tasks/.
const indexes: TaskIndex[] = [];
/** An index of `root`, its first load awaited; closed by `closeIndexes`. */
export async function open(root: string, options: TaskIndexOptions = {}): Promise<TaskIndex> {
  const index = await createTaskIndex(toPaths(root), options);
  indexes.push(index);
  await index.loaded;
  return index;
}

/** The index's tasks as `<id> <status>` lines, sorted. */
export function view(index: TaskIndex): string[] {
  return [...index.summaries()].map((s) => `${s.id} ${s.status}`).sort();
}

/** The same lines from a fresh scan of the tree. */
export async function scan(root: string): Promise<string[]> {
  return (await listTasks(toPaths(root), STATUSES)).tasks.map((t) => `${t.task.id} ${t.status}`).sort();
}

/** Closes every index the tests opened and removes the roots (each test's `after.each`). */
export async function closeIndexes(): Promise<void> {
  await Promise.all(indexes.splice(0).map((index) => index.close()));
  cleanRoots();
}
