import * as z from 'zod';
import type { DecisionResult } from '../store/changes/approval.js';
import { approveTask, rejectTask } from '../store/changes/gates/decision.js';
import { assertOperatorDecision } from './operator-only.js';
import { toFlowLoader } from './org.js';
import { assertFieldSize, idParam, notifyCommitted, toolParams } from './params.js';
import type { ToolDef } from './registry.js';

const actor = z.string().min(1).max(200).describe("Who decides (an operator's name), recorded in the event as `by`.");
const gate = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    'The approval gate decided: applied only while the task still waits there, else refused ' +
      'or a no-op that says so. Required where the workflow has more than one approval gate.',
  );

/** `svc_task_approve` params. */
export const ApproveParams = toolParams({
  taskId: idParam('The task waiting at an approval gate: full id or unique prefix.'),
  gate,
  note: z.string().min(1).optional().describe('Why, recorded in the event and the gate history.'),
  actor,
});

/** `svc_task_reject` params. */
export const RejectParams = toolParams({
  taskId: idParam('The task waiting at an approval gate: full id or unique prefix.'),
  gate,
  note: z.string().min(1).describe("What must change: the blockers of the workflow's origin gate."),
  actor,
});

/** A decision tool: the note checked for size, the decision made under the workflow, the daemon told of a change. */
function decisionTool<P extends typeof ApproveParams | typeof RejectParams>(
  { name, description, params }: Pick<ToolDef<P>, 'name' | 'description' | 'params'>,
  decide: typeof approveTask,
): ToolDef<P> {
  return {
    name,
    description,
    params,
    async handler(input, ctx): Promise<DecisionResult> {
      const {
        taskId,
        note,
        actor: by,
        gate: at,
      } = input as { taskId: string; note?: string; actor: string; gate?: string };
      assertFieldSize('note', note);
      await assertOperatorDecision(ctx, { tool: name, actor: by, taskId });
      const result = await decide(ctx.store, taskId, { actor: by, note, gate: at, loadFlow: toFlowLoader(ctx) });
      if (result.changed) await notifyCommitted(ctx, [result.taskId]);
      return result;
    },
  };
}

/** `svc_task_approve`: moves a task waiting at an approval gate on (next gate, or done). */
export const svcTaskApprove = decisionTool(
  {
    name: 'svc_task_approve',
    description:
      'Approve the approval gate a blocked task waits at: it moves to the next gate, or to ' +
      'done after the last. Returns {taskId, gate, decision, status, at, changed, message}.',
    params: ApproveParams,
  },
  approveTask,
);

/** `svc_task_reject`: sends a task waiting at an approval gate back to the workflow's origin gate. */
export const svcTaskReject = decisionTool(
  {
    name: 'svc_task_reject',
    description:
      "Reject the approval gate a blocked task waits at: it returns to the workflow's origin gate (ready) " +
      'with the note as its blockers. Returns {taskId, gate, decision, status, at, changed, message}.',
    params: RejectParams,
  },
  rejectTask,
);

/**
 * The approval tools: served on the daemon's socket (`svc tool`, `POST /v1/tool/invoke`) for an
 * operator, a web page or a chat bridge; never offered to agents over MCP or the plugin, so an agent
 * cannot approve its own work (docs/approvals-and-logs.md).
 */
export const APPROVAL_TOOLS = [svcTaskApprove, svcTaskReject] as unknown as readonly ToolDef[];
