import { SvcError } from '../core/errors.js';
import type { Task } from '../core/task.js';
import { toAwaiting } from '../store/changes/approval.js';
import type { ToolContext } from './registry.js';

/** A decision only a person makes: the tool, who it names as deciding, and the task. */
export interface OperatorDecision {
  tool: string;
  actor: string;
  taskId: string;
}

/**
 * Refuses an operator's decision (approve, reject, closing a task that waits for approval) made
 * by an agent: a call that comes from a live agent run, or one whose `actor` is an agent of the org
 * chart. Nothing is changed (docs/approvals-and-logs.md, "Who can decide").
 */
export async function assertOperatorDecision(ctx: ToolContext, decision: OperatorDecision): Promise<void> {
  const run = await ctx.runCaller?.();
  if (run) {
    const who = run.agent ? `a run of agent ${run.agent}` : 'an agent run';
    throw new SvcError(
      'forbidden_role',
      `${decision.tool} on ${decision.taskId} is a person's decision, ` +
        `and this call comes from ${who} (task ${run.taskId}, ` +
        `session ${run.sessionId}): an agent does not decide an approval ` +
        `gate, for its own work or another's. Nothing was changed.`,
      'A person decides, from a shell that is not an agent run or on the web board: svc task ' +
        'approve|reject <id> --gate <gate>. An agent ends its own work with svc_task_complete.',
    );
  }
  // Loaded here: `svc task create` without a daemon loads this module and not the org chart's code.
  const org = await (await import('./org.js')).toOrg(ctx).catch(() => null);
  const agent = org?.agents.find((candidate) => candidate.id.toLowerCase() === decision.actor.trim().toLowerCase());
  if (agent) {
    throw new SvcError(
      'forbidden_role',
      `${decision.tool} on ${decision.taskId}: actor \`${decision.actor}\` is an agent of ` +
        `the org chart, and an agent does not decide an approval gate. Nothing was changed.`,
      'Name the person who decides: `--by <name>` on the command line, `actor` in the tool call.',
    );
  }
}

/**
 * Closing a task (`svc task close`, or `svc task update --status done`) that waits for approval, or
 * whose workflow has an approval gate still ahead, passes that gate: the same decision as an
 * approval, refused to an agent.
 */
export async function assertCloseByOperator(ctx: ToolContext, closing: OperatorDecision): Promise<void> {
  const peek = await ctx.store.get(closing.taskId);
  if (toAwaiting(peek) || (await hasApprovalAhead(ctx, peek.task)))
    await assertOperatorDecision(ctx, { ...closing, taskId: peek.task.id });
}

// --- internal ---

/**
 * True when the task's workflow has an approval gate at or after its current gate (a workflow that does not load counts
 * as one).
 */
async function hasApprovalAhead(ctx: ToolContext, task: Task): Promise<boolean> {
  const name = task.gate?.workflow ?? task.routing.workflow;
  if (!name) return false;
  const flow = await (await import('./org.js'))
    .toFlowLoader(ctx)(name)
    .catch(() => null);
  if (!flow) return true;
  const at = Math.max(
    0,
    flow.gates.findIndex((gate) => gate.id === task.gate?.current),
  );
  return flow.gates.slice(at).some((gate) => gate.approval);
}
