import * as z from 'zod';
import { SvcError } from '../core/errors.js';
import type { Status } from '../core/status.js';
import { findOwnerLimits, toFigures } from '../org/budget-limits.js';
import type { DecisionResult } from '../store/changes/approval.js';
import { approveBudget } from '../store/changes/budget.js';
import {
  type BudgetWait,
  describeSpent,
  type TaskBudget,
  toBudgetWait,
  toKey,
  toTaskBudget,
} from '../store/disk/budget.js';
import { loadSpendLedger } from '../store/events/spend.js';
import { approveTask, rejectTask } from '../store/changes/gates/decision.js';
import { assertOperatorDecision } from './operator-only.js';
import { toFlowLoader, toOrg } from './org.js';
import { assertFieldSize, budgetParam, idParam, notifyCommitted, toolParams } from './params.js';
import type { ToolContext, ToolDef } from './registry.js';

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
  budget: budgetParam
    .optional()
    .describe(
      "For a task paused for its own budget: the task's budget raised to { usd?, tokens? } before it goes back.",
    ),
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
  early?: (
    ctx: ToolContext,
    input: { taskId: string; actor: string; raise?: TaskBudget },
  ) => Promise<BudgetDecision | null>,
): ToolDef<P> {
  return {
    name,
    description,
    params,
    async handler(input, ctx): Promise<DecisionResult | BudgetDecision> {
      const {
        taskId,
        note,
        actor: by,
        gate: at,
        budget,
      } = input as { taskId: string; note?: string; actor: string; gate?: string; budget?: TaskBudget };
      assertFieldSize('note', note);
      await assertOperatorDecision(ctx, { tool: name, actor: by, taskId });
      const approved = await early?.(ctx, { taskId, actor: by, ...(budget ? { raise: budget } : {}) });
      if (approved) {
        await notifyCommitted(ctx, [approved.taskId]);
        return approved;
      }
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
      'done after the last. Returns {taskId, gate, decision, status, at, changed, message}. ' +
      'A task paused for a budget goes back to ready (with `budget`, its own budget raised first).',
    params: ApproveParams,
  },
  approveTask,
  approveBudgetWait,
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

/** What approving a task paused for a budget did. */
export interface BudgetDecision {
  taskId: string;
  decision: 'approved';
  status: Status;
  /** The task's own budget now, or null. */
  budget: TaskBudget | null;
  changed: true;
  message: string;
}

/**
 * The approval tools: served on the daemon's socket (`svc tool`, `POST /v1/tool/invoke`) for an
 * operator, a web page or a chat bridge; never offered to agents over MCP or the plugin, so an agent
 * cannot approve its own work (docs/approvals-and-logs.md).
 */
export const APPROVAL_TOOLS = [svcTaskApprove, svcTaskReject] as unknown as readonly ToolDef[];

// --- internal ---

/**
 * Approves a task paused for a budget (null for a task that waits for none, unless a raise was asked: refused). A task
 * budget is raised by `raise`; an agent's or team's is the org chart's, so it must not be spent any more.
 */
async function approveBudgetWait(
  ctx: ToolContext,
  input: { taskId: string; actor: string; raise?: TaskBudget },
): Promise<BudgetDecision | null> {
  const stored = await ctx.store.get(input.taskId);
  const wait = toBudgetWait(stored.task.metadata);
  const id = stored.task.id;
  if (!wait && !input.raise) return null;
  if (!wait)
    throw new SvcError(
      'validation_error',
      `${id} does not wait for a budget: a budget raise (--budget-usd, --budget-tokens) applies only to a task ` +
        'paused for its budget.',
      'List the tasks that wait with `svc task list --awaiting`; a new task takes `svc task create --budget-usd <n>`.',
    );
  if (wait.scope !== 'task') await assertOwnerBudgetLeft(ctx, { id, wait, raise: input.raise });
  const after = await approveBudget(ctx.store, id, { actor: input.actor, raise: input.raise });
  const budget = toTaskBudget(after.task.metadata);
  return {
    taskId: id,
    decision: 'approved',
    status: after.status,
    budget,
    changed: true,
    message: `${id} approved past its budget wait (${describeSpent(wait)}): back to ${after.status}.`,
  };
}

/** Refuses to send back a task paused for an agent's or team's budget while that budget is still spent. */
async function assertOwnerBudgetLeft(
  ctx: ToolContext,
  { id, wait, raise }: { id: string; wait: BudgetWait; raise?: TaskBudget | undefined },
): Promise<void> {
  const owner = `${wait.scope} ${wait.id}`;
  if (raise)
    throw new SvcError(
      'validation_error',
      `${id} waits for the budget of ${owner} (${toKey(wait)}), not its own: --budget-usd and --budget-tokens ` +
        "raise only a task's own budget. Nothing was changed.",
      `Raise budget.${toKey(wait)} of ${owner} in org/org-chart.yaml (or wait for the next period), ` +
        `then svc task approve ${id}.`,
    );
  const now = ctx.store.clock();
  const ledger = await loadSpendLedger(ctx.store.paths.root, now);
  const scope = wait.scope === 'team' ? 'team' : 'agent';
  for (const limit of findOwnerLimits(await toOrg(ctx), { scope, id: wait.id })) {
    const figures = toFigures(limit, ledger.spentBy(limit.agents, limit.period, now));
    if (figures.spent < figures.limit) continue;
    throw new SvcError(
      'validation_error',
      `${id} would wait again at once: ${describeSpent(figures)}. Nothing was changed.`,
      `Raise budget.${toKey(figures)} of ${owner} in org/org-chart.yaml, or wait for the next ` +
        `${figures.period === 'month' ? 'month' : 'day'} (UTC), then svc task approve ${id}.`,
    );
  }
}
