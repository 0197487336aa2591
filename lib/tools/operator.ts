import * as z from 'zod';
import { isSvcError } from '../core/errors.js';
import { archiveTasks } from '../store/changes/archive.js';
import { getArchived } from '../store/listing/archived.js';
import type { CommitResult } from '../store/commit/protocol.js';
import type { Caller } from '../store/changes/lease.js';
import { blockTask, cancelTask, promoteTask, resurrectTask, setStatus, unblockTask } from '../store/changes/ops.js';
import { claimTask, closeTask, updateTaskAsOperator, type UpdateResult } from '../store/changes/work.js';
import { createAsOperator } from './operator-create.js';
import { assertCloseByOperator } from './operator-only.js';
import { budgetParam, notifyCommitted, priorityParam, statusParam, toolParams } from './params.js';
import type { ToolContext, ToolDef } from './registry.js';

/** Who the command line acts as, unless `--agent` names another actor. */
export const OPERATOR = 'operator';

/**
 * The lease parameters: who acts, the session it names, and `command`, the command line that acts on
 * the task with `{id}` where the id goes (the hint of a refusal by a foreign lease adds `--session`).
 */
const leased = {
  taskId: z.string().min(1),
  actor: z.string().optional(),
  sessionId: z.string().optional(),
  command: z.string().optional(),
};

/** A move made by an operator call: `<taskId> <from> -> <to>`. */
export interface MoveResult {
  taskId: string;
  from: string;
  to: string;
  transitioned: boolean;
}

/**
 * The command line's own calls (`svc task
 * create|show|promote|status|close|claim|update|cancel|block|unblock|resurrect`, `svc archive`):
 * the daemon serves them on its socket beside the agent tools, and the command line runs the same
 * handlers itself when no daemon runs. They are not agent tools: MCP and the plugin do not list them.
 */
export const OPERATOR_TOOLS: readonly ToolDef[] = [
  define(
    'operator_task_create',
    {
      title: z.string(),
      body: z.string().optional(),
      priority: priorityParam.optional(),
      agent: z.string().optional(),
      team: z.string().optional(),
      role: z.string().optional(),
      tags: z.array(z.string()).optional(),
      workspace: z.string().min(1).optional(),
      verify: z.array(z.string().min(1)).optional(),
      dependsOn: z.array(z.string()).optional(),
      project: z.string().optional(),
      parent: z.string().optional(),
      workflow: z.string().optional(),
      notBefore: z.string().optional(),
      dueAt: z.string().optional(),
      budget: budgetParam.optional(),
      actor: z.string().optional(),
    },
    (p, ctx) => createAsOperator({ ...p, actor: p.actor ?? OPERATOR }, ctx),
  ),
  define('operator_task_show', { taskId: z.string().min(1) }, async (p, ctx) => {
    const stored = await ctx.store
      .get(p.taskId)
      .catch((err: unknown) =>
        isSvcError(err, 'not_found') ? getArchived(ctx.store.paths, p.taskId, ctx.store.clock()) : Promise.reject(err),
      );
    return { task: stored.task, status: stored.status, body: stored.body, path: stored.path };
  }),
  define(
    'operator_archive',
    { before: z.iso.datetime(), dryRun: z.boolean().optional(), actor: z.string().optional() },
    async (p, ctx) => {
      const report = await archiveTasks(ctx.store, {
        before: new Date(p.before),
        actor: p.actor ?? OPERATOR,
        dryRun: !!p.dryRun,
      });
      await notifyCommitted(
        ctx,
        report.moved.map((move) => move.id),
      );
      return report;
    },
  ),
  define('operator_task_promote', { taskId: z.string().min(1), actor: z.string().optional() }, async (p, ctx) =>
    toMove(ctx, await promoteTask(ctx.store, p.taskId, { actor: p.actor ?? OPERATOR })),
  ),
  define('operator_task_status', { ...leased, status: statusParam, reason: z.string().optional() }, async (p, ctx) =>
    toMove(ctx, await setStatus(ctx.store, p.taskId, { ...toCaller(p), to: p.status, reason: p.reason })),
  ),
  define(
    'operator_task_close',
    { ...leased, reason: z.string().optional(), recover: z.boolean().optional() },
    async (p, ctx) => {
      await assertCloseByOperator(ctx, { tool: 'svc task close', taskId: p.taskId, actor: p.actor ?? OPERATOR });
      return toMove(
        ctx,
        await closeTask(ctx.store, p.taskId, { ...toCaller(p), recover: !!p.recover, reason: p.reason }),
      );
    },
  ),
  define('operator_task_claim', { ...leased, recover: z.boolean().optional() }, async (p, ctx) => {
    const caller = toCaller(p);
    const result = await claimTask(ctx.store, p.taskId, { ...caller, agent: caller.actor, recover: !!p.recover });
    await notifyCommitted(ctx, [result.after.task.id]);
    return { taskId: result.after.task.id, status: result.after.status, lease: result.after.task.lease! };
  }),
  define(
    'operator_task_update',
    {
      ...leased,
      body: z.string().optional(),
      status: statusParam.optional(),
      reason: z.string().optional(),
      recover: z.boolean().optional(),
    },
    async (p, ctx): Promise<UpdateResult> => {
      if (p.status === 'done')
        await assertCloseByOperator(ctx, {
          tool: 'svc task update --status done',
          taskId: p.taskId,
          actor: p.actor ?? OPERATOR,
        });
      const result = await updateTaskAsOperator(ctx.store, p.taskId, {
        ...toCaller(p),
        body: p.body,
        status: p.status,
        reason: p.reason,
        recover: !!p.recover,
      });
      await notifyCommitted(ctx, [result.taskId]);
      return result;
    },
  ),
  define('operator_task_cancel', { ...leased, reason: z.string().optional() }, async (p, ctx) =>
    toMove(ctx, await cancelTask(ctx.store, p.taskId, { ...toCaller(p), reason: p.reason })),
  ),
  define('operator_task_block', { ...leased, reason: z.string() }, async (p, ctx) =>
    toMove(ctx, await blockTask(ctx.store, p.taskId, { ...toCaller(p), reason: p.reason })),
  ),
  define(
    'operator_task_unblock',
    { taskId: z.string().min(1), to: z.enum(['ready', 'backlog']).optional(), actor: z.string().optional() },
    async (p, ctx) => toMove(ctx, await unblockTask(ctx.store, p.taskId, { actor: p.actor ?? OPERATOR, to: p.to })),
  ),
  define('operator_task_resurrect', { taskId: z.string().min(1), actor: z.string().optional() }, async (p, ctx) =>
    toMove(ctx, await resurrectTask(ctx.store, p.taskId, { actor: p.actor ?? OPERATOR })),
  ),
];

// --- internal ---

type Shape = z.core.$ZodLooseShape;

function define<S extends Shape>(
  name: string,
  shape: S,
  handler: (params: z.infer<z.ZodObject<S>>, ctx: ToolContext) => Promise<unknown>,
): ToolDef {
  return {
    name,
    description: `svc ${name.slice('operator_'.length).replace('_', ' ')} (the command line's own call)`,
    params: toolParams(shape),
    handler,
  } as unknown as ToolDef;
}

function toCaller(params: {
  actor?: string | undefined;
  sessionId?: string | undefined;
  command?: string | undefined;
}): Caller {
  const { command } = params;
  return {
    actor: params.actor ?? OPERATOR,
    ...(params.sessionId ? { sessionId: params.sessionId } : {}),
    ...(command
      ? { retry: (taskId: string, session: string) => `${command.replace('{id}', taskId)} --session ${session}` }
      : {}),
  };
}

async function toMove(ctx: ToolContext, result: CommitResult): Promise<MoveResult> {
  const taskId = result.after.task.id;
  await notifyCommitted(ctx, [taskId]);
  return { taskId, from: result.before.status, to: result.after.status, transitioned: result.transitioned };
}
