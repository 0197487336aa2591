import { findBackEdges } from '../../core/graph.js';
import type { Task } from '../../core/task.js';
import type { Paths } from '../disk/paths.js';
import { listNames, listTasks } from '../commit/store.js';

/** A task whose `dependsOn` names ids that are not tasks (an import keeps such links rather than drop them). */
export interface DanglingDependency {
  id: string;
  missing: string[];
}

/** Tasks that wait on each other (`dependsOn`) or are each other's parents (`parentId`), as `a -> b -> a` ids. */
export interface TaskCycle {
  kind: 'dependency' | 'parent';
  ids: string[];
}

/**
 * The links of every task checked at once: each task with a dependency on an id no task file has
 * (an invalid file of that id counts as present), and the dependency and parent cycles (tasks that wait forever).
 */
export async function checkTaskLinks(paths: Paths): Promise<{ dangling: DanglingDependency[]; cycles: TaskCycle[] }> {
  const names = await listNames(paths);
  const { tasks } = await listTasks(paths, [...new Set([...names.values()].flat())]);
  const dangling: DanglingDependency[] = [];
  for (const { task } of tasks) {
    const missing = task.dependsOn.filter((dep) => !names.has(dep));
    if (missing.length) dangling.push({ id: task.id, missing });
  }
  return { dangling, cycles: findTaskCycles(tasks.map((stored) => stored.task)) };
}

/** The dependency and parent cycles among `tasks`, one per link that closes one. */
export function findTaskCycles(tasks: readonly Task[]): TaskCycle[] {
  const index = new Map(tasks.map((task, i) => [task.id, i]));
  const known = (ids: readonly (string | undefined)[]) =>
    ids.map((id) => (id === undefined ? undefined : index.get(id))).filter((at): at is number => at !== undefined);
  const out: TaskCycle[] = [];
  for (const [kind, edgesOf] of [
    ['dependency', (i: number) => known(tasks[i]!.dependsOn)],
    ['parent', (i: number) => known([tasks[i]!.parentId])],
  ] as const) {
    for (const [, , cycle] of findBackEdges(tasks.length, edgesOf))
      out.push({ kind, ids: [...cycle, cycle[0]!].map((i) => tasks[i]!.id) });
  }
  return out;
}
