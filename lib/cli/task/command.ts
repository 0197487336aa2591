import type { CAC } from 'cac';
import { SvcError } from '../../core/errors.js';
import { PRIORITIES } from '../../core/priority.js';
import { assertStatus, STATUSES } from '../../core/status.js';
import { toFutureTime } from '../../core/time/schedule.js';
import { toDidYouMean } from '../../core/suggest.js';
import { toTerminalText } from '../../core/text.js';
import type { StoredTask } from '../../store/disk/task-file.js';
import type { ListRow } from '../../store/listing/task-row.js';
import type { UpdateResult } from '../../store/changes/work.js';
import { readTaskUsage } from '../../store/changes/usage.js';
import { toPaths } from '../../store/disk/paths.js';
import type { MoveResult } from '../../tools/operator.js';
import type { Context } from '../frame/context.js';
import { formatMove, formatTaskDetail, toList, toText } from '../output/format.js';
import { operate, operateRead } from '../frame/operate.js';
import { toCaller, withFlag, withLeaseOptions } from './caller.js';
import { registerTaskClaim } from './claim.js';
import { registerTaskList } from './list.js';
import { formatChildren, listChildren } from './tree.js';
import { toBudgetOption } from './budget.js';
import { asUsage, toUsageError } from '../frame/usage.js';

const STATUS_VALUES = `<status> is one of: ${STATUSES.join(', ')}`;

/**
 * Registers the `svc task` commands. Each is one call (`operator_task_*`): over the socket when a
 * daemon runs, else in this process on the files (docs/architecture.md, "Command line").
 */
export function registerTask(cli: CAC, ctx: Context): void {
  cli
    .command(
      'create <...title>',
      `Create a task in backlog; prints its id on the first line\n--priority takes one of: ${PRIORITIES.join(', ')}`,
    )
    .option('--agent <id>', 'Route to this agent')
    .option('--team <id>', 'Route to this team')
    .option('--role <role>', 'Route to this role')
    .option('--tags <tags>', 'Comma-separated capability tags')
    .option('--priority <p>', `One of ${PRIORITIES.join(', ')}`, { default: 'normal' })
    .option('--depends-on <ids>', 'Comma-separated ids this task waits for')
    .option('--body <text>', 'Markdown body')
    .option('--project <id>', 'Project id', { default: 'default' })
    .option('--parent <id>', 'Parent task id')
    .option('--workflow <name>', 'Gate the task through org/workflows/<name>.yaml')
    .option('--json', 'Print JSON')
    .option('--workspace <name>', 'Work in a git worktree of this workspace (aof.workspaces), or "parent"')
    .option('--verify <checks>', 'Comma-separated checks (aof.checks) that must pass before done')
    .option('--not-before <when>', 'Not dispatched before then: a duration from now (30m, 2h, 2d) or a date or time')
    .option('--due <when>', 'Due by then (2d, or a date or time); past it, one OVERDUE alert')
    .option('--budget-usd <n>', 'At most this many dollars over all its runs; spent, it waits for approve')
    .option('--budget-tokens <n>', 'At most this many tokens over all its runs (docs/agent-runtimes.md)')
    .example('svc task create Fix the login page --agent dev --priority high')
    .action(async (title: string[], opts: Record<string, unknown>) => {
      const params = {
        title: title.join(' '),
        body: toText(opts.body),
        priority: toPriority(opts.priority),
        agent: toText(opts.agent),
        team: toText(opts.team),
        role: toText(opts.role),
        tags: toList(opts.tags),
        dependsOn: toList(opts.dependsOn),
        project: toText(opts.project),
        parent: toText(opts.parent),
        workflow: toText(opts.workflow),
        workspace: toText(opts.workspace),
        verify: toList(opts.verify),
        ...toTimeParams(opts, new Date()),
        ...toBudgetOption(opts, 'svc task create <title>'),
      };
      const created = await operate<ListRow>(ctx, 'operator_task_create', params);
      if (opts.json) return ctx.json(created);
      ctx.print(created.id);
      ctx.print(`created in ${ctx.paint.status(created.status)}: ${created.path}`);
    });

  withLeaseOptions(
    cli
      .command(
        'status <id> <status>',
        `Move a task to a status along the transition table (docs/state-on-disk.md)\n${STATUS_VALUES}`,
      )
      .option('--reason <text>', 'Logged with the transition'),
  )
    .example('svc task status -007 blocked --reason "waits for the API keys"')
    .action(async (id: string, status: string, opts: Record<string, unknown>) => {
      const to = asUsage(() => assertStatus(status));
      const command = `svc task status {id} ${to}${withFlag('reason', opts.reason)}`;
      printMove(
        ctx,
        await operate<MoveResult>(ctx, 'operator_task_status', {
          taskId: String(id),
          ...toCaller(opts, command),
          status: to,
          reason: toText(opts.reason),
        }),
      );
    });

  registerTaskList(cli, ctx);

  cli
    .command(
      'show <id>',
      'Show a task: its fields, its subtasks, then its body\n<id> is a full id, a ' +
        'unique prefix (2026-11-21-00) or a bare sequence (007, -007, 7: today first)',
    )
    .option('--json', 'Print JSON')
    .action(async (id: string, opts: Record<string, unknown>) => {
      const local = async () =>
        (await import('../../store/listing/read-task.js')).readTask(toPaths(ctx.root), String(id), new Date());
      const stored = await operateRead<StoredTask>(
        ctx,
        { tool: 'operator_task_show', params: { taskId: String(id) } },
        local,
      );
      const children = await listChildren(ctx, stored.task.id);
      const lastRunLog = (await (await import('./logs-runs.js')).listLogs(ctx, stored.task.id)).at(-1)?.path ?? null;
      const removed = await readWorkspaceRemoval(ctx, stored.task);
      if (opts.json)
        return ctx.json({
          ...stored.task,
          status: stored.status,
          body: stored.body,
          path: stored.path,
          lastRunLog,
          usage: readTaskUsage(stored.task.metadata),
          ...(removed ? { workspaceRemoved: { at: removed.at, reason: removed.reason } } : {}),
          children: children.map(({ id: child, title, status }) => ({ id: child, title, status })),
        });
      const lines = formatTaskDetail(stored, ctx.paint);
      const at = lines.findIndex((line) => line.startsWith('workspace: '));
      if (removed && at >= 0) lines[at] += `: ${toTerminalText(removed.text)}`;
      const log = lastRunLog ? [`last run log: ${toTerminalText(lastRunLog)} (svc task logs ${stored.task.id})`] : [];
      lines.splice(
        lines.findIndex((line) => line.startsWith('file: ')) + 1,
        0,
        ...log,
        ...formatChildren(children, ctx),
      );
      lines.forEach((line) => ctx.print(line));
    });

  registerLeased(cli, ctx);
}

// --- internal ---

/** How svc removed the task's worktree, when it did (this host's record of it). */
async function readWorkspaceRemoval(
  ctx: Context,
  task: StoredTask['task'],
): Promise<{ at: string; reason: string; text: string } | null> {
  if (!task.workspace) return null;
  const { formatRemoval, readRemoval } = await import('../../workspace/removed.js');
  const removal = await readRemoval(toPaths(ctx.root).workspacesRemoved, task.id, task.workspace.path);
  return removal && { at: removal.at, reason: removal.reason, text: formatRemoval(removal) };
}

function registerLeased(cli: CAC, ctx: Context): void {
  const recover = [
    '--recover-on-failure',
    'When the command fails on an expired lease, reclaim the task to ready (then retry)',
  ] as const;
  withLeaseOptions(
    cli
      .command('close <id>', 'Move a task to done from any non-terminal status')
      .option(...recover)
      .option('--reason <text>', 'Logged with the transition'),
  ).action(async (id: string, opts: Record<string, unknown>) => {
    const command = `svc task close {id}${withFlag('reason', opts.reason)}`;
    printMove(
      ctx,
      await operate<MoveResult>(ctx, 'operator_task_close', {
        taskId: String(id),
        ...toCaller(opts, command),
        recover: !!opts.recoverOnFailure,
        reason: toText(opts.reason),
      }),
    );
  });
  withLeaseOptions(
    cli
      .command(
        'update <id>',
        `Replace the body and/or change the status\n--status takes one of: ${STATUSES.join(', ')}`,
      )
      .option(...recover)
      .option('--body <text>', 'New Markdown body')
      .option('--status <status>', 'New status')
      .option('--reason <text>', 'Logged with the transition'),
  ).action(async (id: string, opts: Record<string, unknown>) => {
    if (opts.body === undefined && opts.status === undefined)
      throw new SvcError('validation_error', 'Nothing to update.', 'Pass --body and/or --status.');
    const status = opts.status === undefined ? undefined : asUsage(() => assertStatus(opts.status));
    const command =
      `svc task update ` +
      `{id}${withFlag('body', opts.body)}${withFlag('status', opts.status)}${withFlag('reason', opts.reason)}`;
    const params = {
      taskId: String(id),
      ...toCaller(opts, command),
      body: toText(opts.body),
      status,
      reason: toText(opts.reason),
      recover: !!opts.recoverOnFailure,
    };
    const result = await operate<UpdateResult>(ctx, 'operator_task_update', params);
    ctx.print(
      `${result.taskId} ` +
        `${ctx.paint.status(result.status)}${result.transitioned ? ' (moved)' : ''}` +
        `${result.bodyUpdated ? ' (body replaced)' : ''}`,
    );
  });
  registerTaskClaim(cli, ctx);
}

function printMove(ctx: Context, move: MoveResult): void {
  ctx.print(formatMove(move, ctx.paint));
}

/** `--priority` as a priority; another word is a usage error with a "Did you mean". */
export function toPriority(value: unknown): string {
  const text = String(value ?? 'normal');
  if ((PRIORITIES as readonly string[]).includes(text)) return text;
  throw toUsageError(
    new SvcError(
      'validation_error',
      `Unknown priority ${JSON.stringify(text)}.${toDidYouMean(text, PRIORITIES)}`,
      `Use one of: ${PRIORITIES.join(', ')}.`,
    ),
  );
}

/**
 * `--not-before` and `--due` as ISO times (a duration counts from `now`); a past time is refused before anything is
 * sent.
 */
export function toTimeParams(opts: Record<string, unknown>, now: Date): { notBefore?: string; dueAt?: string } {
  const notBefore = toText(opts.notBefore);
  const due = toText(opts.due);
  return {
    ...(notBefore === undefined ? {} : { notBefore: toFutureTime(notBefore, now, '--not-before') }),
    ...(due === undefined ? {} : { dueAt: toFutureTime(due, now, '--due') }),
  };
}
