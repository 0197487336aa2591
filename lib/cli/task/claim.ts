import type { CAC } from 'cac';
import { describeError, SvcError } from '../../core/errors.js';
import { toTerminalText } from '../../core/text.js';
import type { StoredTask } from '../../store/disk/task-file.js';
import { loadStore, type Context } from '../frame/context.js';
import { operate } from '../frame/operate.js';
import { OPERATOR, toCaller } from './caller.js';

interface Claimed {
  taskId: string;
  lease: { agent: string; expiresAt: string; sessionId: string };
}

/**
 * Registers `svc task claim <id>`: ready -> in-progress under the operator's lease. A task with a
 * workspace gets its worktree as a dispatch would (made, or the one it has), and its path is printed.
 */
export function registerTaskClaim(cli: CAC, ctx: Context): void {
  cli
    .command(
      'claim <id>',
      'Take a ready task in progress under a 10-minute lease; prints the ' +
        "lease's session id and, for a task with a workspace, its worktree",
    )
    .option(
      '--recover-on-failure',
      'When the command fails on an expired lease, reclaim the task to ready (then retry)',
    )
    .option('--agent <id>', 'Lease holder and actor', { default: OPERATOR })
    .action(async (id: string, opts: Record<string, unknown>) => {
      const params = { taskId: String(id), ...toCaller(opts, 'svc task claim {id}'), recover: !!opts.recoverOnFailure };
      const { taskId, lease } = await operate<Claimed>(ctx, 'operator_task_claim', params);
      ctx.print(
        `${taskId} ${ctx.paint.status('in-progress')}: leased to ` +
          `${lease.agent} until ${lease.expiresAt} (session ${lease.sessionId})`,
      );
      await printWorktree(ctx, taskId, lease);
      const as = lease.agent === OPERATOR ? '' : ` --agent ${lease.agent}`;
      ctx.print(
        `next: svc task close ${taskId}${as}, svc task update ${taskId}${as} ` +
          `--body ..., or name the lease with --session ${lease.sessionId}`,
      );
    });
}

// --- internal ---

/**
 * Prepares the claimed task's worktree when it names a workspace (`prepareWorkspace`, as a dispatch does) and prints
 * where it is.
 */
async function printWorktree(ctx: Context, taskId: string, lease: Claimed['lease']): Promise<void> {
  const shown = await operate<StoredTask>(ctx, 'operator_task_show', { taskId });
  // the store and git are loaded only for a task with a workspace
  if (!shown.task.routing.workspace && !shown.task.workspace) return;
  await loadStore();
  const store = ctx.store();
  const claimed = await store.get(taskId);
  const [{ loadOrg }, { prepareWorkspace }] = await Promise.all([
    import('../../org/org-chart.js'),
    import('../../engine/workspaces/step.js'),
  ]); // loaded only by a claim
  const org = await loadOrg(ctx.root).catch(() => null);
  const workspace = await prepareWorkspace(
    { store, org, agent: lease.agent, sessionId: lease.sessionId },
    claimed,
  ).catch((err: unknown) => {
    throw new SvcError(
      'unavailable',
      `${taskId} is claimed (session ${lease.sessionId}), but ` +
        `its worktree could not be prepared: ${describeError(err)}`,
      `Fix the cause, then run \`svc task status ${taskId} ready --session ` +
        `${lease.sessionId}\` and claim it again, or work without the worktree.`,
    );
  });
  if (workspace)
    ctx.print(
      `worktree: ${toTerminalText(workspace.path)} (branch ` +
        `${toTerminalText(workspace.branch)}, workspace ${toTerminalText(workspace.name)})`,
    );
}
