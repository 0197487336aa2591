import * as z from 'zod';
import type { Status } from '../core/status.js';
import { toPendingCheck } from '../store/changes/gates/checking.js';
import { completeTask, OUTCOMES } from '../store/changes/gates/complete.js';
import { toFlowLoader } from './org.js';
import {
  actorParam,
  assertFieldSize,
  idParam,
  notifyCommitted,
  sessionIdParam,
  toCaller,
  toolParams,
  withHandOn,
} from './params.js';
import type { ToolDef } from './registry.js';

/** `svc_task_complete` params. */
export const CompleteParams = toolParams({
  taskId: idParam('The task: full id or unique prefix.'),
  summary: z.string().optional().describe('Completion summary / work log entry, appended to the body.'),
  outcome: z
    .enum(OUTCOMES)
    .optional()
    .describe(
      'Required for gated tasks: complete (advance), needs_review ' +
        '(reject to the origin gate) or blocked (hold at this gate).',
    ),
  blockers: z
    .array(z.string().min(1))
    .optional()
    .describe('Required when outcome is needs_review or blocked: what is wrong or missing.'),
  callerRole: z
    .string()
    .min(1)
    .optional()
    .describe("Your declared role; on a gated task it must be the current gate's role."),
  actor: actorParam,
  sessionId: sessionIdParam,
});

/** What `svc_task_complete` returns: the status after the transition. */
export interface CompleteResult {
  taskId: string;
  status: Status;
  /**
   * The checks the daemon runs before the completion goes through (the task stays in progress, leased to `svc`,
   * meanwhile).
   */
  checking?: string[];
}

/** `svc_task_complete`: completes an in-progress task, or moves a gated task through its workflow. */
export const svcTaskComplete: ToolDef<typeof CompleteParams> = {
  name: 'svc_task_complete',
  description:
    'Complete a task you are working on, or advance/reject the current ' +
    'gate of a gated task (outcome required there; blockers required for ' +
    'needs_review and blocked). Pass sessionId, the lease token of your spawn prompt: a task ' +
    'leased to another session is refused (lease_held), a lease that ended is stale. Returns ' +
    '{taskId, status}; when the gate or task names checks, status stays in-progress and `checking` ' +
    'lists them: the daemon runs them and the completion goes through only if they pass.',
  params: CompleteParams,
  async handler(params, ctx): Promise<CompleteResult> {
    assertFieldSize('summary', params.summary);
    assertFieldSize('blockers', params.blockers);
    const result = await withHandOn(ctx, params.taskId, () =>
      completeTask(ctx.store, params.taskId, {
        ...toCaller(params, 'svc_task_complete'),
        ...(params.summary !== undefined ? { summary: params.summary } : {}),
        ...(params.outcome ? { outcome: params.outcome } : {}),
        ...(params.blockers ? { blockers: params.blockers } : {}),
        ...(params.callerRole ? { callerRole: params.callerRole } : {}),
        loadFlow: toFlowLoader(ctx),
      }),
    );
    await notifyCommitted(ctx, [result.after.task.id]);
    const pending = result.after.status === 'in-progress' ? toPendingCheck(result.after.task) : null;
    return {
      taskId: result.after.task.id,
      status: result.after.status,
      ...(pending ? { checking: pending.checks } : {}),
    };
  },
};
