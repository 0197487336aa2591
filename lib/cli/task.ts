import type { CAC } from 'cac';
import { SvcError } from '../core/errors.js';
import { PRIORITIES, type Priority } from '../core/priority.js';
import { assertStatus } from '../core/status.js';
import { loadOrg } from '../org/org-chart.js';
import { firstGate, loadWorkflow } from '../org/workflow.js';
import { assertTasksExist } from '../store/deps.js';
import { blockTask, cancelTask, promoteTask, resurrectTask, setStatus, unblockTask } from '../store/ops.js';
import type { CommitResult } from '../store/commit.js';
import type { Caller } from '../store/lease.js';
import { claimTask, closeTask, updateTaskAsOperator } from '../store/work.js';
import type { Context } from './context.js';
import { formatTaskDetail, toList, toListRow, toText } from './format.js';
import { registerTaskList } from './task-list.js';

/** Who `svc task create` records as `createdBy`. */
const CREATOR = 'cli';
/** Who the command line acts as, unless `--agent` names another actor. */
const OPERATOR = 'operator';

/** Registers the `svc task` commands. */
export function registerTask(cli: CAC, ctx: Context): void {
  cli.command('create <...title>', 'Create a task in backlog; prints its id on the first line')
    .option('--agent <id>', 'Route to this agent').option('--team <id>', 'Route to this team').option('--role <role>', 'Route to this role')
    .option('--tags <tags>', 'Comma-separated capability tags').option('--priority <p>', `One of ${PRIORITIES.join(', ')}`, { default: 'normal' })
    .option('--depends-on <ids>', 'Comma-separated ids this task waits for').option('--body <text>', 'Markdown body')
    .option('--project <id>', 'Project id', { default: 'default' }).option('--parent <id>', 'Parent task id')
    .option('--workflow <name>', 'Gate the task through org/workflows/<name>.yaml').option('--json', 'Print JSON')
    .action(async (title: string[], opts: Record<string, unknown>) => {
      const store = ctx.store();
      const workflow = toText(opts.workflow) === undefined ? undefined : await loadWorkflow(ctx.root, toText(opts.workflow)!, { org: await loadOrg(ctx.root) });
      const routing = Object.fromEntries(Object.entries({ agent: toText(opts.agent), team: toText(opts.team), role: toText(opts.role), tags: toList(opts.tags), workflow: workflow && toText(opts.workflow) }).filter(([, v]) => v !== undefined));
      const dependsOn = await assertTasksExist(store, toList(opts.dependsOn) ?? []);
      const parentId = toText(opts.parent) === undefined ? undefined : await store.resolve(toText(opts.parent)!);
      const created = await store.create({
        title: title.join(' '), body: toText(opts.body), priority: toPriority(opts.priority), routing, dependsOn, project: toText(opts.project),
        createdBy: CREATOR, actor: OPERATOR, ...(parentId ? { parentId } : {}),
        ...(workflow ? { gate: { workflow: toText(opts.workflow)!, current: firstGate(workflow).id, history: [] } } : {}),
      });
      if (opts.json) return ctx.json(toListRow(created));
      ctx.print(created.task.id);
      ctx.print(`created in ${created.status}: ${created.path}`);
    });

  cli.command('promote <id>', 'Move a task from backlog to ready').action(async (id: string) => {
    printMove(ctx, await promoteTask(ctx.store(), String(id), { actor: OPERATOR }));
  });

  withLeaseOptions(cli.command('status <id> <status>', 'Move a task to a status along the transition table').option('--reason <text>', 'Logged with the transition'))
    .action(async (id: string, status: string, opts: Record<string, unknown>) => {
      const caller = toCaller(opts, (task) => `svc task status ${task} ${status}${withFlag('reason', opts.reason)}`);
      printMove(ctx, await setStatus(ctx.store(), String(id), assertStatus(status), { ...caller, reason: toText(opts.reason) }));
    });

  registerTaskList(cli, ctx);

  cli.command('show <id>', 'Show a task').option('--json', 'Print JSON').action(async (id: string, opts: Record<string, unknown>) => {
    const stored = await ctx.store().get(String(id));
    if (opts.json) return ctx.json({ ...stored.task, status: stored.status, body: stored.body, path: stored.path });
    formatTaskDetail(stored).forEach((line) => ctx.print(line));
  });

  cli.command('resurrect <id>', 'Move a deadlettered task back to ready, resetting its failure count').action(async (id: string) => {
    printMove(ctx, await resurrectTask(ctx.store(), String(id), { actor: OPERATOR }));
  });

  registerLeased(cli, ctx);
  registerMore(cli, ctx);
}

// --- internal ---

function registerLeased(cli: CAC, ctx: Context): void {
  const recover = ['--recover-on-failure', 'When the command fails on an expired lease, reclaim the task to ready (then retry)'] as const;
  withLeaseOptions(cli.command('close <id>', 'Move a task to done from any non-terminal status').option(...recover).option('--reason <text>', 'Logged with the transition'))
    .action(async (id: string, opts: Record<string, unknown>) => {
      const caller = toCaller(opts, (task) => `svc task close ${task}${withFlag('reason', opts.reason)}`);
      printMove(ctx, await closeTask(ctx.store(), String(id), { ...caller, recover: !!opts.recoverOnFailure, reason: toText(opts.reason) }));
    });
  withLeaseOptions(cli.command('update <id>', 'Replace the body and/or change the status').option(...recover)
    .option('--body <text>', 'New Markdown body').option('--status <status>', 'New status').option('--reason <text>', 'Logged with the transition'))
    .action(async (id: string, opts: Record<string, unknown>) => {
      if (opts.body === undefined && opts.status === undefined) throw new SvcError('validation_error', 'Nothing to update.', 'Pass --body and/or --status.');
      const status = opts.status === undefined ? undefined : assertStatus(opts.status);
      const caller = toCaller(opts, (task) => `svc task update ${task}${withFlag('body', opts.body)}${withFlag('status', opts.status)}${withFlag('reason', opts.reason)}`);
      const result = await updateTaskAsOperator(ctx.store(), String(id), { ...caller, body: toText(opts.body), status, reason: toText(opts.reason), recover: !!opts.recoverOnFailure });
      ctx.print(`${result.taskId} ${result.status}${result.transitioned ? ' (moved)' : ''}${result.bodyUpdated ? ' (body replaced)' : ''}`);
    });
  cli.command('claim <id>', 'Take a ready task in progress under a 10-minute lease; prints the lease\'s session id').option(...recover)
    .option('--agent <id>', 'Lease holder and actor', { default: OPERATOR })
    .action(async (id: string, opts: Record<string, unknown>) => {
      const caller = toCaller(opts, (task) => `svc task claim ${task}`);
      const result = await claimTask(ctx.store(), String(id), { ...caller, agent: caller.actor, recover: !!opts.recoverOnFailure });
      const lease = result.after.task.lease!;
      const task = result.after.task.id;
      ctx.print(`${task} in-progress: leased to ${lease.agent} until ${lease.expiresAt} (session ${lease.sessionId})`);
      const as = lease.agent === OPERATOR ? '' : ` --agent ${lease.agent}`;
      ctx.print(`next: svc task close ${task}${as}, svc task update ${task}${as} --body ..., or name the lease with --session ${lease.sessionId}`);
    });
}

function registerMore(cli: CAC, ctx: Context): void {
  withLeaseOptions(cli.command('cancel <id>', 'Cancel a task').option('--reason <text>', 'Why')).action(async (id: string, opts: Record<string, unknown>) => {
    const caller = toCaller(opts, (task) => `svc task cancel ${task}${withFlag('reason', opts.reason)}`);
    printMove(ctx, await cancelTask(ctx.store(), String(id), { ...caller, reason: toText(opts.reason) }));
  });
  withLeaseOptions(cli.command('block <id>', 'Block a task on something outside the task graph').option('--reason <text>', 'What it waits for (required)'))
    .action(async (id: string, opts: Record<string, unknown>) => {
      const caller = toCaller(opts, (task) => `svc task block ${task}${withFlag('reason', opts.reason)}`);
      printMove(ctx, await blockTask(ctx.store(), String(id), { ...caller, reason: toText(opts.reason) ?? '' }));
    });
  cli.command('unblock <id>', 'Move a blocked task back to ready').action(async (id: string) => {
    printMove(ctx, await unblockTask(ctx.store(), String(id), { actor: OPERATOR }));
  });
}

/** `--agent` and `--session`: who acts, and the lease it names (README, "Lease rules"). */
function withLeaseOptions<T extends { option(name: string, description: string): T }>(command: T): T {
  return command
    .option('--agent <id>', `Act as this agent (default ${OPERATOR}); the holder of a lease moves its own task`)
    .option('--session <id>', 'Name the lease to act under (its session id, from `svc task claim` or `svc task show`)');
}

/** The caller of a command: `--agent` (default the operator), `--session`, and the command that names a lease. */
function toCaller(opts: Record<string, unknown>, command: (taskId: string) => string): Caller {
  const sessionId = toText(opts.session);
  return {
    actor: toText(opts.agent) ?? OPERATOR,
    ...(sessionId ? { sessionId } : {}),
    retry: (taskId, session) => `${command(taskId)} --session ${session}`,
  };
}

/** ` --name 'value'` when the option was given, quoted for a POSIX shell. */
function withFlag(name: string, value: unknown): string {
  const text = toText(value);
  return text === undefined ? '' : ` --${name} '${text.replaceAll("'", "'\\''")}'`;
}

function printMove(ctx: Context, result: CommitResult): void {
  const id = result.after.task.id;
  if (result.transitioned) ctx.print(`${id} ${result.before.status} -> ${result.after.status}`);
  else ctx.print(`${id} already ${result.after.status}`);
}

function toPriority(value: unknown): Priority {
  const text = String(value ?? 'normal');
  if ((PRIORITIES as readonly string[]).includes(text)) return text as Priority;
  throw new SvcError('validation_error', `Unknown priority ${JSON.stringify(text)}.`, `Use one of: ${PRIORITIES.join(', ')}.`);
}
