import type { CAC } from 'cac';
import { SvcError } from '../../core/errors.js';
import { toDidYouMean } from '../../core/suggest.js';
import type { DepAddResult, DepRemoveResult } from '../../tools/deps.js';
import type { EditResult } from '../../tools/edit.js';
import type { Context } from '../frame/context.js';
import { toList, toText } from '../output/format.js';
import { operateWith } from '../frame/operate.js';
import { toPriority, toTimeParams } from './command.js';
import { OPERATOR } from './caller.js';
import { loadTool } from '../frame/tool-modules.js';
import { toUsageError } from '../frame/usage.js';

/**
 * Registers `svc task edit` and `svc task dep add|remove`: the `svc_task_edit` and
 * `svc_task_dep_add|remove` tools, over the daemon's socket when one runs, else in this process on
 * the files (the tool's module alone is loaded).
 */
export function registerTaskEdit(cli: CAC, ctx: Context): void {
  cli
    .command(
      'edit <id>',
      "Change a task's title, priority, routing (agent, role, team, " +
        'tags), due time or not-before time; what is not given is kept',
    )
    .option('--title <text>', 'New title')
    .option('--priority <p>', 'low, normal, high or critical')
    .option('--agent <id>', 'Route to this agent')
    .option('--role <role>', 'Route to this role')
    .option('--team <id>', 'Route to this team')
    .option('--tags <tags>', "Comma-separated capability tags (replace the task's)")
    .option('--due <when>', 'Due by then (2d, or a date or time)')
    .option('--not-before <when>', 'Not dispatched before then (30m, 2h, or a date or time)')
    .option('--json', 'Print JSON')
    .example('svc task edit 007 --priority high --due 2d')
    .action(async (id: string, opts: Record<string, unknown>) => {
      const params = toEditParams(String(id), opts);
      const result = await operateWith<EditResult>(ctx, { tool: 'svc_task_edit', params }, () =>
        loadTool('svc_task_edit'),
      );
      if (opts.json) return ctx.json(result);
      ctx.print(
        result.updatedFields.length
          ? `${result.taskId} edited: ${result.updatedFields.join(', ')}`
          : `${result.taskId}: nothing changed (it already had those values)`,
      );
    });
  cli
    .command(
      'dep <action> <id> <blocker>',
      'add: the task waits until <blocker> is done; remove: it no longer waits for it',
    )
    .option('--json', 'Print JSON')
    .example('svc task dep add 007 005')
    .example('svc task dep remove 007 005')
    // biome-ignore lint/complexity/useMaxParams: cac passes the command's three arguments, then its options
    .action(async (action: string, id: string, blocker: string, opts: Record<string, unknown>) => {
      const tool = toDepTool(String(action), String(id), String(blocker));
      const params = { taskId: String(id), blockerId: String(blocker), actor: OPERATOR };
      const result = await operateWith<DepAddResult & Partial<DepRemoveResult>>(ctx, { tool, params }, () =>
        loadTool(tool),
      );
      if (opts.json) return ctx.json(result);
      ctx.print(formatDep(tool, result));
    });
}

// --- internal ---

const DEP_ACTIONS = ['add', 'remove'] as const;

function toEditParams(id: string, opts: Record<string, unknown>): Record<string, unknown> {
  const routing = {
    agent: toText(opts.agent),
    role: toText(opts.role),
    team: toText(opts.team),
    tags: toList(opts.tags),
  };
  const given = Object.fromEntries(Object.entries(routing).filter(([, value]) => value !== undefined));
  const params: Record<string, unknown> = {
    taskId: id,
    actor: OPERATOR,
    ...(toText(opts.title) !== undefined ? { title: toText(opts.title) } : {}),
    ...(opts.priority !== undefined ? { priority: toPriority(opts.priority) } : {}),
    ...(Object.keys(given).length ? { routing: given } : {}),
    ...toTimeParams(opts, new Date()),
  };
  if (Object.keys(params).length > 2) return params;
  throw toUsageError(
    new SvcError(
      'validation_error',
      `svc task edit ${id} was given nothing to change.`,
      `Pass --title, --priority, --agent, --role, --team, --tags, --due ` +
        `or --not-before, e.g. svc task edit ${id} --priority high.`,
    ),
  );
}

function toDepTool(action: string, id: string, blocker: string): string {
  if ((DEP_ACTIONS as readonly string[]).includes(action)) return `svc_task_dep_${action}`;
  const message =
    `svc task dep takes add or remove, not ` + `${JSON.stringify(action)}.${toDidYouMean(action, DEP_ACTIONS)}`;
  throw toUsageError(
    new SvcError(
      'validation_error',
      message,
      `Run svc task dep add ${id} ${blocker} (${id} waits for ${blocker}) or svc task dep remove ${id} ${blocker}.`,
    ),
  );
}

function formatDep(tool: string, result: DepAddResult & Partial<DepRemoveResult>): string {
  const list = `depends on: ${result.dependsOn.join(', ') || '(nothing)'}`;
  if (tool === 'svc_task_dep_add') return `${result.taskId} waits for ${result.blockerId}; ${list}`;
  if (result.removed) return `${result.taskId} no longer waits for ${result.blockerId}; ${list}`;
  return `${result.taskId} did not wait for ${result.blockerId}: nothing changed; ${list}`;
}
