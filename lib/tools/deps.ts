import { addDependency, removeDependency } from '../store/changes/deps.js';
import { actorParam, idParam, notifyCommitted, toActor, toolParams } from './params.js';
import type { ToolDef } from './registry.js';

/** Params of `svc_task_dep_add` and `svc_task_dep_remove`. */
export const DepParams = toolParams({
  taskId: idParam('The dependent task: full id or unique prefix.'),
  blockerId: idParam('The task that must be done first: full id or unique prefix.'),
  actor: actorParam,
});

/** What `svc_task_dep_add` returns: the full updated `dependsOn`. */
export interface DepAddResult {
  taskId: string;
  blockerId: string;
  dependsOn: string[];
}

/** What `svc_task_dep_remove` returns; `removed` is false when the dependency was not there. */
export interface DepRemoveResult extends DepAddResult {
  removed: boolean;
}

/** `svc_task_dep_add`: the task waits until the blocker is done; cycles are refused. */
export const svcTaskDepAdd: ToolDef<typeof DepParams> = {
  name: 'svc_task_dep_add',
  description:
    'Make a task wait until another task (the blocker) is done. Unknown blockers ' +
    'and cycles are refused; adding an existing dependency changes nothing. ' +
    'Returns {taskId, blockerId, dependsOn} with the full updated dependsOn.',
  params: DepParams,
  async handler(params, ctx): Promise<DepAddResult> {
    const result = await addDependency(
      ctx.store,
      { arg: params.taskId, blockerArg: params.blockerId },
      toActor(params),
    );
    await notifyCommitted(ctx, [result.taskId]);
    return { taskId: result.taskId, blockerId: result.blockerId, dependsOn: result.dependsOn };
  },
};

/** `svc_task_dep_remove`: removes a dependency. */
export const svcTaskDepRemove: ToolDef<typeof DepParams> = {
  name: 'svc_task_dep_remove',
  description:
    'Remove a dependency of a task. Removing one that is not there changes ' +
    'nothing (removed: false). Returns {taskId, blockerId, dependsOn, removed}.',
  params: DepParams,
  async handler(params, ctx): Promise<DepRemoveResult> {
    const result = await removeDependency(
      ctx.store,
      { arg: params.taskId, blockerArg: params.blockerId },
      toActor(params),
    );
    await notifyCommitted(ctx, [result.taskId]);
    return { taskId: result.taskId, blockerId: result.blockerId, dependsOn: result.dependsOn, removed: result.changed };
  },
};
