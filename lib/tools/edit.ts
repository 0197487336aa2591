import * as z from 'zod';
import type { Priority } from '../core/priority.js';
import type { Status } from '../core/status.js';
import { assertTaskText } from '../core/task.js';
import { assertKnownRouting } from '../org/routing.js';
import { editTask, type EditInput } from '../store/changes/edit.js';
import { toOrg } from './org.js';
import { actorParam, idParam, notifyCommitted, priorityParam, toActor, toolParams } from './params.js';
import type { ToolDef } from './registry.js';
import { scheduleTimeParams, toScheduleTimes } from './schedule-times.js';

/** `svc_task_edit` params. */
export const EditParams = toolParams({
  taskId: idParam('The task: full id or unique prefix.'),
  title: z.string().optional().describe('New title (at most 500 characters).'),
  description: z.string().optional().describe('New body (Markdown); replaces the existing one.'),
  priority: priorityParam.optional().describe('low, normal, high or critical.'),
  routing: z
    .strictObject({
      role: z.string().min(1).optional(),
      team: z.string().min(1).optional(),
      agent: z.string().min(1).optional(),
      tags: z.array(z.string().min(1)).optional(),
    })
    .optional()
    .describe('Routing fields to set: {role?, team?, agent?, tags?}; fields not given are kept.'),
  ...scheduleTimeParams,
  actor: actorParam,
});

/** What `svc_task_edit` returns. */
export interface EditResult {
  taskId: string;
  updatedFields: string[];
  task: { title: string; status: Status; priority: Priority };
}

/** `svc_task_edit`: edits title, description, priority and routing. */
export const svcTaskEdit: ToolDef<typeof EditParams> = {
  name: 'svc_task_edit',
  description:
    "Edit a task's title, description (body), priority, routing, notBefore " +
    'or dueAt. Fields not given are kept; updatedFields lists what changed. ' +
    'Returns {taskId, updatedFields, task: {title, status, priority}}.',
  params: EditParams,
  async handler(params, ctx): Promise<EditResult> {
    assertTaskText(params.title, params.description);
    if (params.routing) assertKnownRouting(params.routing, await toOrg(ctx));
    const input = { ...toEditInput(params), ...toScheduleTimes(params, ctx.store.clock()) };
    const { result, updatedFields } = await editTask(ctx.store, params.taskId, { ...input, actor: toActor(params) });
    const { task, status } = result.after;
    await notifyCommitted(ctx, [task.id]);
    return { taskId: task.id, updatedFields, task: { title: task.title, status, priority: task.priority } };
  },
};

// --- internal ---

function toEditInput(params: z.infer<typeof EditParams>): EditInput {
  const input: EditInput = {};
  if (params.title !== undefined) input.title = params.title;
  if (params.description !== undefined) input.description = params.description;
  if (params.priority) input.priority = params.priority;
  if (params.routing) input.routing = params.routing;
  return input;
}
