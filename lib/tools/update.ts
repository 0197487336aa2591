import * as z from 'zod';
import { SvcError } from '../core/errors.js';
import { priceUsage } from '../org/pricing.js';
import type { Store } from '../store/commit/store.js';
import { reportRunUsage } from '../store/changes/usage.js';
import { updateTask, type UpdateResult } from '../store/changes/work.js';
import { toLeaseTtlMs, toOrg } from './org.js';
import {
  actorParam,
  DEFAULT_ACTOR,
  idParam,
  notifyCommitted,
  sessionIdParam,
  statusParam,
  toCaller,
  toolParams,
} from './params.js';
import type { ToolContext, ToolDef } from './registry.js';

const tokens = z.number().int('must be a whole number').min(0, 'must be 0 or more');

/** `svc_task_update`'s `usage`: what a run that svc does not read itself (a command agent, a gateway) spent. */
export const UsageParam = z.strictObject(
  {
    inputTokens: tokens.describe('Input tokens, without the cache reads.'),
    outputTokens: tokens,
    cacheReadTokens: tokens.optional(),
    cacheWriteTokens: tokens.optional(),
    costUsd: z
      .number()
      .min(0, 'must be 0 or more')
      .optional()
      .describe('The cost, when the model has no price in aof.pricing.'),
    model: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? 'unknown setting (known: inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costUsd, model)'
        : undefined,
  },
);

/** `svc_task_update` params. */
export const UpdateParams = toolParams({
  taskId: idParam('The task: full id or unique prefix.'),
  body: z.string().optional().describe('Replaces the whole body (Markdown).'),
  status: statusParam.optional().describe('New status; must be a valid transition from the current one.'),
  reason: z.string().optional().describe('Why; logged with the transition.'),
  usage: UsageParam.optional().describe(
    "Tokens and cost your run spent since your last report, added to the task's usage (metadata.usage, run.usage).",
  ),
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
    'on a task leased to someone else (lease_held). A run that svc does not meter may report its spend in ' +
    '`usage`. Returns {taskId, status, updatedAt, bodyUpdated, transitioned}.',
  params: UpdateParams,
  async handler(params, ctx): Promise<UpdateResult> {
    if (params.status === 'done') await assertNotGated(ctx.store, params.taskId);
    const lease = params.usage ? ((await ctx.store.get(params.taskId)).task.lease ?? null) : null;
    const result = await updateTask(ctx.store, params.taskId, {
      ...toCaller(params, 'svc_task_update'),
      leaseTtlMs: await toLeaseTtlMs(ctx),
      ...(params.body !== undefined ? { body: params.body } : {}),
      ...(params.status ? { status: params.status } : {}),
      ...(params.reason ? { reason: params.reason } : {}),
    });
    if (params.usage) {
      const agent = params.actor ?? lease?.agent ?? DEFAULT_ACTOR;
      const session = params.sessionId ?? lease?.sessionId ?? null;
      await reportUsage(ctx, { taskId: result.taskId, agent, session, usage: params.usage });
    }
    await notifyCommitted(ctx, [result.taskId]);
    return result;
  },
};

// --- internal ---

/**
 * Records a reported usage, priced by `aof.pricing` when its model is there; the runtime is the agent's in the org
 * chart (`command` for a command agent, `gateway` for the others).
 */
async function reportUsage(
  ctx: ToolContext,
  report: { taskId: string; agent: string; session: string | null; usage: z.output<typeof UsageParam> },
): Promise<void> {
  const org = await toOrg(ctx).catch(() => null);
  const { usage, agent } = report;
  const model = usage.model ?? null;
  const tokens = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens ?? 0,
    cacheWriteTokens: usage.cacheWriteTokens ?? 0,
    costUsd: usage.costUsd ?? null,
  };
  const known = org?.agents.find((entry) => entry.id === agent);
  await reportRunUsage(ctx.store, {
    taskId: report.taskId,
    agent,
    runtime: known?.runtime ?? (known?.command ? 'command' : 'gateway'),
    model,
    cliSession: null,
    session: report.session,
    usage: priceUsage(tokens, model, org?.aof.pricing ?? {}),
  });
}

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
