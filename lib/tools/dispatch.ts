import * as z from 'zod';
import { isSvcError, SvcError } from '../core/errors.js';
import type { Status } from '../core/status.js';
import { assertTaskText, type Routing, type Task } from '../core/task.js';
import type { OrgChart } from '../org/schema.js';
import { firstGate, loadWorkflow } from '../org/workflow.js';
import { assertTasksExist } from '../store/changes/deps.js';
import type { Store } from '../store/commit/store.js';
import { isRoutable, toOrg } from './org.js';
import {
  actorParam,
  assertFieldSize,
  budgetParam,
  idParam,
  notifyCommitted,
  priorityParam,
  toActor,
  toolParams,
} from './params.js';
import type { ToolContext, ToolDef } from './registry.js';
import { scheduleTimeParams, toScheduleTimes } from './schedule-times.js';

/** `svc_dispatch` params. */
export const DispatchParams = toolParams({
  title: z.string().describe('Short title (at most 500 characters).'),
  brief: z.string().describe('The task body, Markdown: what to do and how to know it is done.'),
  agent: z.string().min(1).optional().describe('Target agent id; bypasses org chart routing.'),
  team: z.string().min(1).optional().describe('Team id from the org chart.'),
  role: z.string().min(1).optional().describe('Role from the org chart.'),
  priority: priorityParam.optional().describe('low, normal (default), high or critical.'),
  dependsOn: z
    .array(idParam('Task id or unique prefix.'))
    .optional()
    .describe('Tasks that must be done first (ids or unique prefixes; each must exist).'),
  parentId: idParam('Parent task id or unique prefix.').optional(),
  tags: z.array(z.string().min(1)).optional().describe('Capabilities the agent needs (capability-based routing).'),
  workspace: z
    .string()
    .min(1)
    .optional()
    .describe('A workspace of the org chart (aof.workspaces), or "parent" for the parent task\'s worktree.'),
  verify: z
    .array(z.string().min(1))
    .optional()
    .describe('Checks of the org chart (aof.checks) that must pass before the task is done.'),
  workflow: z
    .string()
    .min(1)
    .optional()
    .describe('A workflow of org/workflows/ (file name without .yaml): the task is gated, starting at its first gate.'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Arbitrary key-value data kept with the task.'),
  budget: budgetParam.optional(),
  ...scheduleTimeParams,
  actor: actorParam,
});

/** What `svc_dispatch` returns. */
export interface DispatchResult {
  taskId: string;
  status: Status;
  filePath: string;
}

/** `svc_dispatch`: creates a task, in `ready` when it can be routed, else in `backlog`. */
export const svcDispatch: ToolDef<typeof DispatchParams> = {
  name: 'svc_dispatch',
  description:
    'Create a task and place it in the ready queue. It starts in ready when it ' +
    'has a route (agent, role, team or tags; without an org chart only agent), ' +
    'else in backlog. With workflow, the task is gated through org/workflows/<workflow>.yaml ' +
    'from its first gate (and starts in ready). Returns {taskId, status, filePath}.',
  params: DispatchParams,
  async handler(params, ctx): Promise<DispatchResult> {
    assertTaskText(params.title, params.brief);
    assertFieldSize('metadata', params.metadata);
    const org = await toOrg(ctx);
    const gate = params.workflow === undefined ? undefined : await toFirstGate(ctx, params.workflow, org);
    const routing = { ...toRouting(params), ...(gate ? { workflow: gate.workflow } : {}) };
    // A gated task's route is its gate's role.
    const ready = isRoutable(routing, org) || gate !== undefined;
    const dependsOn = unique(await assertTasksExist(ctx.store, params.dependsOn ?? []));
    const parentId = params.parentId === undefined ? undefined : await resolveParent(ctx.store, params.parentId);
    const times = toScheduleTimes(params, ctx.store.clock());
    const created = await ctx.store.create({
      title: params.title,
      body: params.brief,
      status: ready ? 'ready' : 'backlog',
      routing,
      dependsOn,
      ...(params.priority ? { priority: params.priority } : {}),
      ...(parentId ? { parentId } : {}),
      ...(gate ? { gate } : {}),
      ...(params.metadata || params.budget ? { metadata: { ...params.metadata, ...toBudget(params.budget) } } : {}),
      ...times,
      createdBy: params.actor ?? 'svc_dispatch',
      actor: toActor(params),
    });
    await notifyCommitted(ctx, [created.task.id]);
    return { taskId: created.task.id, status: created.status, filePath: created.path };
  },
};

// --- internal ---

/** `{budget}` of the metadata when a budget is given (it wins over a `budget` key of `metadata`). */
function toBudget(budget: z.infer<typeof DispatchParams>['budget']): { budget?: { usd?: number; tokens?: number } } {
  return budget ? { budget } : {};
}

function toRouting(params: z.infer<typeof DispatchParams>): Routing {
  const routing: Routing = {};
  if (params.agent) routing.agent = params.agent;
  if (params.team) routing.team = params.team;
  if (params.role) routing.role = params.role;
  if (params.tags?.length) routing.tags = params.tags;
  if (params.workspace) routing.workspace = params.workspace;
  if (params.verify?.length) routing.verify = params.verify;
  return routing;
}

/**
 * The first gate of `workflow`, checked against the org chart's roles; an unknown name is `not_found` with a "Did you
 * mean".
 */
async function toFirstGate(
  ctx: ToolContext,
  workflow: string,
  org: OrgChart | null,
): Promise<NonNullable<Task['gate']>> {
  const loaded = await loadWorkflow(ctx.store.paths.root, workflow, { org });
  return { workflow, current: firstGate(loaded).id, history: [] };
}

async function resolveParent(store: Store, arg: string): Promise<string> {
  try {
    return await store.resolve(arg);
  } catch (err) {
    if (!isSvcError(err, 'not_found')) throw err;
    throw new SvcError('not_found', `parentId names ${JSON.stringify(arg)}, which is not a task.`, {
      hint: 'Pass the id (or a unique prefix) of an existing task as parentId.',
      cause: err,
    });
  }
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}
