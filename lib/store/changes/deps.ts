import { SvcError } from '../../core/errors.js';
import { assertSchedulable } from '../../core/status.js';
import type { Store } from '../commit/store.js';

/** The result of a dependency change: the task's full `dependsOn` afterwards. */
export interface DepResult {
  taskId: string;
  blockerId: string;
  dependsOn: string[];
  changed: boolean;
}

/** A dependency as given: the task (`arg`) and the task it waits for (`blockerArg`), by id or prefix. */
export interface DepArgs {
  arg: string;
  blockerArg: string;
}

/** Makes `arg` wait for `blockerArg`; refuses unknown blockers and cycles. Adding twice is a no-op. */
export async function addDependency(store: Store, { arg, blockerArg }: DepArgs, actor: string): Promise<DepResult> {
  const taskId = await store.resolve(arg);
  const blockerId = await store.resolve(blockerArg).catch((err: unknown) => {
    if (err instanceof SvcError && err.code === 'not_found') {
      throw new SvcError(
        'not_found',
        `Blocker task ${JSON.stringify(blockerArg)} does not exist.`,
        'Pass the id of an existing task as blockerId.',
      );
    }
    throw err;
  });
  await assertNoCycle(store, taskId, blockerId);
  const result = await store.commit(
    taskId,
    (current) => {
      assertSchedulable(taskId, current.status, `its dependencies (adding ${blockerId})`);
      if (current.task.dependsOn.includes(blockerId)) return null;
      const dependsOn = [...current.task.dependsOn, blockerId];
      return {
        task: { ...current.task, dependsOn },
        body: current.body,
        status: current.status,
        events: [{ type: 'task.updated', taskId, actor, payload: { fields: ['dependsOn'], added: blockerId } }],
      };
    },
    actor,
  );
  return { taskId, blockerId, dependsOn: result.after.task.dependsOn, changed: result.changed };
}

/** Removes a dependency; removing one that is not there is a no-op (`changed: false`). */
export async function removeDependency(store: Store, { arg, blockerArg }: DepArgs, actor: string): Promise<DepResult> {
  const taskId = await store.resolve(arg);
  const current = await store.get(taskId);
  const blockerId = current.task.dependsOn.includes(blockerArg)
    ? blockerArg
    : await store.resolve(blockerArg).catch((err: unknown) => {
        // removing what is not there is a no-op
        if (err instanceof SvcError && err.code === 'not_found') return blockerArg;
        throw err;
      });
  const result = await store.commit(
    taskId,
    (cur) => {
      assertSchedulable(taskId, cur.status, `its dependencies (removing ${blockerId})`);
      if (!cur.task.dependsOn.includes(blockerId)) return null;
      const dependsOn = cur.task.dependsOn.filter((id) => id !== blockerId);
      return {
        task: { ...cur.task, dependsOn },
        body: cur.body,
        status: cur.status,
        events: [{ type: 'task.updated', taskId, actor, payload: { fields: ['dependsOn'], removed: blockerId } }],
      };
    },
    actor,
  );
  return { taskId, blockerId, dependsOn: result.after.task.dependsOn, changed: result.changed };
}

/** Throws `not_found` naming the first id in `ids` that is not a task. */
export async function assertTasksExist(store: Store, ids: readonly string[]): Promise<string[]> {
  const resolved: string[] = [];
  for (const id of ids) {
    try {
      resolved.push(await store.resolve(id));
    } catch (err) {
      if (err instanceof SvcError && err.code === 'not_found') {
        throw new SvcError(
          'not_found',
          `dependsOn names ${JSON.stringify(id)}, which is not a task.`,
          'Create the blocker first, or pass ids of existing tasks.',
        );
      }
      throw err;
    }
  }
  return resolved;
}

// --- internal ---

/** Walks the blocker's dependencies (reading only the tasks reachable from it) looking for `taskId`. */
async function assertNoCycle(store: Store, taskId: string, blockerId: string): Promise<void> {
  const seen = new Set<string>();
  const stack: string[][] = [[blockerId]];
  while (stack.length) {
    const path = stack.pop()!;
    const id = path[path.length - 1]!;
    if (id === taskId) {
      throw new SvcError(
        'dependency_cycle',
        `Adding ${blockerId} as a blocker of ${taskId} makes a cycle: ${[taskId, ...path].join(' -> ')}.`,
        'Remove one of the dependencies in the cycle first.',
      );
    }
    if (seen.has(id)) continue;
    seen.add(id);
    const deps = await store.get(id).then(
      (t) => t.task.dependsOn,
      () => [] as string[],
    );
    for (const dep of deps) stack.push([...path, dep]);
  }
}
