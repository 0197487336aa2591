import * as z from 'zod';
import { SvcError } from '../core/errors.js';
import type { Store } from '../store/commit/store.js';
import { updateTask, type UpdateResult } from '../store/changes/work.js';
import { toLeaseTtlMs } from './org.js';
import { actorParam, idParam, notifyCommitted, sessionIdParam, statusParam, toCaller, toolParams } from './params.js';
import type { ToolDef } from './registry.js';

/** `svc_task_update` params. */
export const UpdateParams = toolParams({
  taskId: idParam('The task: full id or unique prefix.'),
  body: z.string().optional().describe('Replaces the whole body (Markdown).'),
  status: statusParam.optional().describe('New status; must be a valid transition from the current one.'),
  reason: z.string().optional().describe('Why; logged with the transition.'),
  actor: actorParam,
  sessionId: sessionIdParam,
});

/** `svc_task_update`: body replace, status change, and heartbeat (renews the caller's lease). */
export const svcTaskUpdate: ToolDef<typeof UpdateParams> = {
  name: 'svc_task_update',
  description:
    'Change the body or status of a task without completing it; also the heartbeat: ' +
    "any call by the lease holder (same sessionId, or actor = the lease's agent) " +
    'renews the lease. Pass sessionId, the lease token of your ' +
    'spawn prompt; a stale one is refused, and so is a call ' +
    'on a task leased to someone else (lease_held). Returns {taskId, status, updatedAt, bodyUpdated, transitioned}.',
  params: UpdateParams,
  async handler(params, ctx): Promise<UpdateResult> {
    if (params.status === 'done') await assertNotGated(ctx.store, params.taskId);
    const result = await updateTask(ctx.store, params.taskId, {
      ...toCaller(params, 'svc_task_update'),
      leaseTtlMs: await toLeaseTtlMs(ctx),
      ...(params.body !== undefined ? { body: params.body } : {}),
      ...(params.status ? { status: params.status } : {}),
      ...(params.reason ? { reason: params.reason } : {}),
    });
    await notifyCommitted(ctx, [result.taskId]);
    return result;
  },
};

// --- internal ---

/** A gated task reaches done only through its gates: `svc_task_update` must not skip them. */
async function assertNotGated(store: Store, arg: string): Promise<void> {
  const { task } = await store.get(arg);
  const workflow = task.routing.workflow;
  if (!workflow && task.routing.verify?.length) {
    throw new SvcError(
      'invalid_transition',
      `${task.id} names checks (${task.routing.verify.join(', ')}): it ` +
        `reaches done only through svc_task_complete, once they pass.`,
      `Call svc_task_complete({ taskId: "${task.id}" }).`,
    );
  }
  if (!workflow) return;
  throw new SvcError(
    'invalid_transition',
    `${task.id} is in workflow ${workflow} (gate \`${task.gate?.current ?? 'first'}\`): ` +
      `it reaches done only through its gates, not svc_task_update.`,
    `Call svc_task_complete({ taskId: "${task.id}", outcome: "complete" | "needs_review" | "blocked" }).`,
  );
}
