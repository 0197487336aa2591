import { SvcError } from '../core/errors.js';
import type { WebMount } from '../daemon/web-port.js';
import { invokeTool } from '../tools/registry.js';

/** The board's actions, each the tool the command line calls for it (docs/web-board.md, "Actions"). */
const ACTIONS: Record<string, { tool: string; fields: readonly string[] }> = {
  create: { tool: 'operator_task_create', fields: ['title', 'body', 'priority', 'agent', 'team', 'tags', 'dependsOn'] },
  promote: { tool: 'operator_task_promote', fields: ['taskId'] },
  priority: { tool: 'svc_task_edit', fields: ['taskId', 'priority'] },
  block: { tool: 'operator_task_block', fields: ['taskId', 'reason'] },
  unblock: { tool: 'operator_task_unblock', fields: ['taskId'] },
  cancel: { tool: 'operator_task_cancel', fields: ['taskId', 'reason'] },
  resurrect: { tool: 'operator_task_resurrect', fields: ['taskId'] },
  approve: { tool: 'svc_task_approve', fields: ['taskId', 'gate', 'note'] },
  reject: { tool: 'svc_task_reject', fields: ['taskId', 'gate', 'note'] },
};

/** The actions this daemon's tools offer (approve and reject only where approval gates exist). */
export function listActions(mount: WebMount): string[] {
  return Object.entries(ACTIONS)
    .filter(([, action]) => mount.tools.some((tool) => tool.name === action.tool))
    .map(([name]) => name);
}

/** Runs one action as `actor` through its tool: the same checks, leases and errors as on the command line. */
export async function runAction(
  mount: WebMount,
  name: string,
  { body, actor }: { body: Record<string, unknown>; actor: string },
): Promise<unknown> {
  const action = ACTIONS[name];
  if (!action || !listActions(mount).includes(name)) {
    throw new SvcError(
      'not_found',
      `Unknown action ${JSON.stringify(name)}.`,
      `Actions here: ${listActions(mount).join(', ')}.`,
    );
  }
  const params: Record<string, unknown> = { actor };
  for (const field of action.fields) if (body[field] !== undefined && body[field] !== '') params[field] = body[field];
  return invokeTool(mount.tools, { tool: action.tool, params }, mount.toolContext);
}
