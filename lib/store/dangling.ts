import type { Paths } from './paths.js';
import { listNames, listTasks } from './store.js';

/** A task whose `dependsOn` names ids that are not tasks (an import keeps such links rather than drop them). */
export interface DanglingDependency {
  id: string;
  missing: string[];
}

/** Every task with a dependency on an id no task file has (an invalid file of that id counts as present). */
export async function findDanglingDependencies(paths: Paths): Promise<DanglingDependency[]> {
  const names = await listNames(paths);
  const { tasks } = await listTasks(paths, [...new Set([...names.values()].flat())]);
  const out: DanglingDependency[] = [];
  for (const { task } of tasks) {
    const missing = task.dependsOn.filter((dep) => !names.has(dep));
    if (missing.length) out.push({ id: task.id, missing });
  }
  return out;
}
