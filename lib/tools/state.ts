import * as z from 'zod';
import type { Status } from '../core/status.js';
import type { CommitResult } from '../store/commit/protocol.js';
import { blockTask, cancelTask, unblockTask } from '../store/changes/ops.js';
import {
  actorParam,
  idParam,
  notifyCommitted,
  sessionIdParam,
  toActor,
  toCaller,
  toolParams,
  withHandOn,
} from './params.js';
import type { ToolContext, ToolDef } from './registry.js';

/** What `svc_task_cancel`, `svc_task_block` and `svc_task_unblock` return. */
export interface StateResult {
  taskId: string;
  /** The status after the call. */
  status: Status;
  /** False when the task was already in that status. */
  transitioned: boolean;
  /** The reason recorded, when one was given. */
  reason?: string;
}

/** `svc_task_cancel` params. */
export const CancelParams = toolParams({
  taskId: idParam('The task: full id or unique prefix.'),
  reason: z.string().min(1).optional().describe('Why; logged and kept in metadata.cancelReason.'),
  actor: actorParam,
  sessionId: sessionIdParam,
});

/** `svc_task_cancel`: moves a task to cancelled (terminal). */
export const svcTaskCancel: ToolDef<typeof CancelParams> = {
  name: 'svc_task_cancel',
  description:
    'Cancel a task (terminal: it is never dispatched again), even one ' +
    "another agent holds: its run is ended and its holder's next call " +
    'fails with stale_session. A sessionId, when given, must be the ' +
    'current lease. Returns {taskId, status, transitioned, reason?}.',
  params: CancelParams,
  async handler(params, ctx): Promise<StateResult> {
    const result = await cancelTask(ctx.store, params.taskId, {
      ...toCaller(params, 'svc_task_cancel'),
      ...withReason(params.reason),
    });
    return finish(ctx, result, params.reason);
  },
};

/** `svc_task_block` params. */
export const BlockParams = toolParams({
  taskId: idParam('The task: full id or unique prefix.'),
  reason: z
    .string({ error: (iss) => (iss.input === undefined ? 'is required: say what the task waits for' : undefined) })
    .trim()
    .min(1, 'is required: say what the task waits for')
    .describe('What the task waits for (required); kept in metadata.blockReason.'),
  actor: actorParam,
  sessionId: sessionIdParam,
});

/** `svc_task_block`: blocks a task on something outside the task graph. */
export const svcTaskBlock: ToolDef<typeof BlockParams> = {
  name: 'svc_task_block',
  description:
    'Block a task on an external dependency that is not a task (reason required). On a task ' +
    'you work on, pass your sessionId. Returns {taskId, status, transitioned, reason}.',
  params: BlockParams,
  async handler(params, ctx): Promise<StateResult> {
    const result = await withHandOn(ctx, params.taskId, () =>
      blockTask(ctx.store, params.taskId, { ...toCaller(params, 'svc_task_block'), reason: params.reason }),
    );
    return finish(ctx, result, params.reason);
  },
};

/** `svc_task_unblock` params. */
export const UnblockParams = toolParams({
  taskId: idParam('The task: full id or unique prefix.'),
  actor: actorParam,
});

/** `svc_task_unblock`: blocked -> ready (a gated task stays at its gate). */
export const svcTaskUnblock: ToolDef<typeof UnblockParams> = {
  name: 'svc_task_unblock',
  description:
    'Mark a blocked task ready for dispatch again (a gated task stays ' +
    'at its current gate). Returns {taskId, status, transitioned}.',
  params: UnblockParams,
  async handler(params, ctx): Promise<StateResult> {
    return finish(ctx, await unblockTask(ctx.store, params.taskId, { actor: toActor(params) }));
  },
};

// --- internal ---

function withReason(reason: string | undefined): { reason?: string } {
  return reason ? { reason } : {};
}

async function finish(ctx: ToolContext, result: CommitResult, reason?: string): Promise<StateResult> {
  const taskId = result.after.task.id;
  await notifyCommitted(ctx, [taskId]);
  return { taskId, status: result.after.status, transitioned: result.transitioned, ...withReason(reason) };
}
