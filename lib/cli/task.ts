import type { CAC } from 'cac';
import { SvcError } from '../core/errors.js';
import { PRIORITIES } from '../core/priority.js';
import { assertStatus, STATUSES } from '../core/status.js';
import { toFutureTime } from '../core/schedule-time.js';
import { toDidYouMean } from '../core/suggest.js';
import type { StoredTask } from '../store/task-file.js';
import type { ListRow } from '../store/task-row.js';
import type { UpdateResult } from '../store/work.js';
import type { MoveResult } from '../tools/operator.js';
import type { Context } from './context.js';
import { formatMove, formatTaskDetail, toList, toText } from './format.js';
import { operate } from './operate.js';
import { registerTaskList } from './task-list.js';

/** Who the command line acts as, unless `--agent` names another actor. */
const OPERATOR = 'operator';
const STATUS_VALUES = `<status> is one of: ${STATUSES.join(', ')}`;

/**
 * Registers the `svc task` commands. Each is one call (`operator_task_*`): over the socket when a
 * daemon runs, else in this process on the files (docs/architecture.md, "Command line").
 */
export function registerTask(cli: CAC, ctx: Context): void {
  cli.command('create <...title>', `Create a task in backlog; prints its id on the first line\n--priority takes one of: ${PRIORITIES.join(', ')}`)
    .option('--agent <id>', 'Route to this agent').option('--team <id>', 'Route to this team').option('--role <role>', 'Route to this role')
    .option('--tags <tags>', 'Comma-separated capability tags').option('--priority <p>', `One of ${PRIORITIES.join(', ')}`, { default: 'normal' })
    .option('--depends-on <ids>', 'Comma-separated ids this task waits for').option('--body <text>', 'Markdown body')
    .option('--project <id>', 'Project id', { default: 'default' }).option('--parent <id>', 'Parent task id')
    .option('--workflow <name>', 'Gate the task through org/workflows/<name>.yaml').option('--json', 'Print JSON')
    .option('--not-before <when>', 'Not dispatched before then: a duration from now (30m, 2h, 2d) or a date or time').option('--due <when>', 'Due by then (2d, or a date or time); past it, one OVERDUE alert')
    .example('svc task create Fix the login page --agent dev --priority high')
    .action(async (title: string[], opts: Record<string, unknown>) => {
      const params = {
        title: title.join(' '), body: toText(opts.body), priority: toPriority(opts.priority), agent: toText(opts.agent), team: toText(opts.team), role: toText(opts.role),
        tags: toList(opts.tags), dependsOn: toList(opts.dependsOn), project: toText(opts.project), parent: toText(opts.parent), workflow: toText(opts.workflow),
        ...toTimeParams(opts, new Date()),
      };
      const created = await operate<ListRow>(ctx, 'operator_task_create', params);
      if (opts.json) return ctx.json(created);
      ctx.print(created.id);
      ctx.print(`created in ${ctx.paint.status(created.status)}: ${created.path}`);
    });

  cli.command('promote <id>', 'Move a task from backlog to ready').action(async (id: string) => {
    printMove(ctx, await operate<MoveResult>(ctx, 'operator_task_promote', { taskId: String(id) }));
  });

  withLeaseOptions(cli.command('status <id> <status>', `Move a task to a status along the transition table (README, "State on disk")\n${STATUS_VALUES}`).option('--reason <text>', 'Logged with the transition'))
    .example('svc task status -007 blocked --reason "waits for the API keys"')
    .action(async (id: string, status: string, opts: Record<string, unknown>) => {
      const to = assertStatus(status);
      const command = `svc task status {id} ${to}${withFlag('reason', opts.reason)}`;
      printMove(ctx, await operate<MoveResult>(ctx, 'operator_task_status', { taskId: String(id), ...toCaller(opts, command), status: to, reason: toText(opts.reason) }));
    });

  registerTaskList(cli, ctx);

  cli.command('show <id>', 'Show a task: its fields, then its body\n<id> is a full id, a unique prefix (2026-11-21-00) or a unique sequence (007, -007)').option('--json', 'Print JSON')
    .action(async (id: string, opts: Record<string, unknown>) => {
      const stored = await operate<StoredTask>(ctx, 'operator_task_show', { taskId: String(id) });
      if (opts.json) return ctx.json({ ...stored.task, status: stored.status, body: stored.body, path: stored.path });
      formatTaskDetail(stored, ctx.paint).forEach((line) => ctx.print(line));
    });

  cli.command('resurrect <id>', 'Move a deadlettered task back to ready, resetting its failure count').action(async (id: string) => {
    printMove(ctx, await operate<MoveResult>(ctx, 'operator_task_resurrect', { taskId: String(id) }));
  });

  registerLeased(cli, ctx);
  registerMore(cli, ctx);
}

// --- internal ---

function registerLeased(cli: CAC, ctx: Context): void {
  const recover = ['--recover-on-failure', 'When the command fails on an expired lease, reclaim the task to ready (then retry)'] as const;
  withLeaseOptions(cli.command('close <id>', 'Move a task to done from any non-terminal status').option(...recover).option('--reason <text>', 'Logged with the transition'))
    .action(async (id: string, opts: Record<string, unknown>) => {
      const command = `svc task close {id}${withFlag('reason', opts.reason)}`;
      printMove(ctx, await operate<MoveResult>(ctx, 'operator_task_close', { taskId: String(id), ...toCaller(opts, command), recover: !!opts.recoverOnFailure, reason: toText(opts.reason) }));
    });
  withLeaseOptions(cli.command('update <id>', `Replace the body and/or change the status\n--status takes one of: ${STATUSES.join(', ')}`).option(...recover)
    .option('--body <text>', 'New Markdown body').option('--status <status>', 'New status').option('--reason <text>', 'Logged with the transition'))
    .action(async (id: string, opts: Record<string, unknown>) => {
      if (opts.body === undefined && opts.status === undefined) throw new SvcError('validation_error', 'Nothing to update.', 'Pass --body and/or --status.');
      const status = opts.status === undefined ? undefined : assertStatus(opts.status);
      const command = `svc task update {id}${withFlag('body', opts.body)}${withFlag('status', opts.status)}${withFlag('reason', opts.reason)}`;
      const params = { taskId: String(id), ...toCaller(opts, command), body: toText(opts.body), status, reason: toText(opts.reason), recover: !!opts.recoverOnFailure };
      const result = await operate<UpdateResult>(ctx, 'operator_task_update', params);
      ctx.print(`${result.taskId} ${ctx.paint.status(result.status)}${result.transitioned ? ' (moved)' : ''}${result.bodyUpdated ? ' (body replaced)' : ''}`);
    });
  cli.command('claim <id>', 'Take a ready task in progress under a 10-minute lease; prints the lease\'s session id').option(...recover)
    .option('--agent <id>', 'Lease holder and actor', { default: OPERATOR })
    .action(async (id: string, opts: Record<string, unknown>) => {
      const params = { taskId: String(id), ...toCaller(opts, 'svc task claim {id}'), recover: !!opts.recoverOnFailure };
      const { taskId, lease } = await operate<{ taskId: string; lease: { agent: string; expiresAt: string; sessionId: string } }>(ctx, 'operator_task_claim', params);
      ctx.print(`${taskId} ${ctx.paint.status('in-progress')}: leased to ${lease.agent} until ${lease.expiresAt} (session ${lease.sessionId})`);
      const as = lease.agent === OPERATOR ? '' : ` --agent ${lease.agent}`;
      ctx.print(`next: svc task close ${taskId}${as}, svc task update ${taskId}${as} --body ..., or name the lease with --session ${lease.sessionId}`);
    });
}

function registerMore(cli: CAC, ctx: Context): void {
  withLeaseOptions(cli.command('cancel <id>', 'Cancel a task (terminal)').option('--reason <text>', 'Why')).action(async (id: string, opts: Record<string, unknown>) => {
    const command = `svc task cancel {id}${withFlag('reason', opts.reason)}`;
    printMove(ctx, await operate<MoveResult>(ctx, 'operator_task_cancel', { taskId: String(id), ...toCaller(opts, command), reason: toText(opts.reason) }));
  });
  withLeaseOptions(cli.command('block <id>', 'Block a task on something outside the task graph').option('--reason <text>', 'What it waits for (required)'))
    .action(async (id: string, opts: Record<string, unknown>) => {
      const command = `svc task block {id}${withFlag('reason', opts.reason)}`;
      printMove(ctx, await operate<MoveResult>(ctx, 'operator_task_block', { taskId: String(id), ...toCaller(opts, command), reason: toText(opts.reason) ?? '' }));
    });
  cli.command('unblock <id>', 'Move a blocked task back to ready').action(async (id: string) => {
    printMove(ctx, await operate<MoveResult>(ctx, 'operator_task_unblock', { taskId: String(id) }));
  });
}

/** `--agent` and `--session`: who acts, and the lease it names (README, "Lease rules"). */
function withLeaseOptions<T extends { option(name: string, description: string): T }>(command: T): T {
  return command
    .option('--agent <id>', `Act as this agent (default ${OPERATOR}); the holder of a lease moves its own task`)
    .option('--session <id>', 'Name the lease to act under (its session id, from `svc task claim` or `svc task show`)');
}

/** The lease parameters of a call: `--agent` (default the operator), `--session`, and the command that names a lease. */
function toCaller(opts: Record<string, unknown>, command: string): { actor: string; sessionId?: string; command: string } {
  const sessionId = toText(opts.session);
  return { actor: toText(opts.agent) ?? OPERATOR, ...(sessionId ? { sessionId } : {}), command };
}

/** ` --name 'value'` when the option was given, quoted for a POSIX shell. */
function withFlag(name: string, value: unknown): string {
  const text = toText(value);
  return text === undefined ? '' : ` --${name} '${text.replaceAll("'", "'\\''")}'`;
}

function printMove(ctx: Context, move: MoveResult): void {
  ctx.print(formatMove(move, ctx.paint));
}

function toPriority(value: unknown): string {
  const text = String(value ?? 'normal');
  if ((PRIORITIES as readonly string[]).includes(text)) return text;
  throw new SvcError('validation_error', `Unknown priority ${JSON.stringify(text)}.${toDidYouMean(text, PRIORITIES)}`, `Use one of: ${PRIORITIES.join(', ')}.`);
}

/** `--not-before` and `--due` as ISO times (a duration counts from `now`); a past time is refused before anything is sent. */
function toTimeParams(opts: Record<string, unknown>, now: Date): { notBefore?: string; dueAt?: string } {
  const notBefore = toText(opts.notBefore);
  const due = toText(opts.due);
  return { ...(notBefore === undefined ? {} : { notBefore: toFutureTime(notBefore, now, '--not-before') }), ...(due === undefined ? {} : { dueAt: toFutureTime(due, now, '--due') }) };
}
