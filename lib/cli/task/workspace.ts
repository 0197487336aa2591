import type { CAC } from 'cac';
import { describeError, SvcError } from '../../core/errors.js';
import { toTerminalText } from '../../core/text.js';
import type { Context } from '../frame/context.js';

/**
 * Registers `svc task workspace <id> [--remove [--force]]`: shows the task's worktree and whether svc
 * created it; `--remove` removes one svc created (the branch stays), `--force` even with uncommitted
 * changes. Runs here, on this host's git (docs/workspaces.md).
 */
export function registerTaskWorkspace(cli: CAC, ctx: Context): void {
  cli
    .command('workspace <id>', 'Show the git worktree of a task; --remove removes one svc created (the branch is kept)')
    .option('--remove', 'Remove the worktree (refused with uncommitted changes unless --force)')
    .option('--force', 'With --remove: drop uncommitted changes')
    .option('--json', 'Print JSON')
    .example('svc task workspace 007 --remove')
    .action(async (id: string, opts: Record<string, unknown>) => {
      const [{ createStore }, { readAnyRecord }, { worktreeState }, { removeTaskWorktree }, { formatRemoval }] =
        await Promise.all([
          import('../../store/commit/store.js'),
          import('../../workspace/records.js'),
          import('../../workspace/git.js'),
          import('../../engine/workspaces/cleanup.js'),
          import('../../workspace/removed.js'),
        ]);
      const store = createStore({ root: ctx.root });
      const { task } = await store.get(String(id));
      const record = await readAnyRecord(store.paths.workspaces, task.id);
      if (opts.remove) {
        const done = await removeTaskWorktree(store, task.id, { force: opts.force === true }).catch((err: unknown) => {
          throw new SvcError(
            'invalid_transition',
            `${task.id}: ${describeError(err)}`,
            'svc only removes worktrees it created; commit or drop the changes, or pass --force.',
          );
        });
        if (opts.json) return ctx.json({ taskId: task.id, removed: done === 'removed', path: record?.path });
        return ctx.print(
          `${task.id}: ${done === 'removed' ? 'removed' : 'forgot (already gone)'} ` +
            `${toTerminalText(record?.path ?? '')}; branch ${toTerminalText(record?.branch ?? '')} is kept`,
        );
      }
      const removed = record?.removed && record.path === task.workspace?.path ? record.removed : null;
      const removal = removed
        ? { path: record!.path, branch: record!.branch, at: removed.at, reason: removed.reason ?? 'removed' }
        : null;
      const state = removal
        ? 'removed'
        : task.workspace
          ? await worktreeState(record?.repo ?? task.workspace.path, task.workspace.path)
          : null;
      if (opts.json)
        return ctx.json({
          taskId: task.id,
          workspace: task.workspace ?? null,
          createdBySvc: record !== null,
          state,
          kept: record?.kept ?? null,
          removed: removal && { at: removal.at, reason: removal.reason },
        });
      if (!task.workspace) return ctx.print(`${task.id} has no worktree`);
      const whose = removal
        ? `${formatRemoval(removal)}; branch ${toTerminalText(removal.branch)} is kept`
        : `${state}${record ? ', created by svc' : ', not created by svc (never removed by it)'}`;
      ctx.print(
        `${task.id}: ${toTerminalText(task.workspace.path)} (branch ${toTerminalText(task.workspace.branch)}, from ` +
          `${toTerminalText(task.workspace.base)}, host ` +
          `${toTerminalText(task.workspace.host)}): ${toTerminalText(whose)}`,
      );
      if (record?.kept) ctx.print(`kept: ${toTerminalText(record.kept.reason)} (since ${record.kept.at})`);
    });
}
