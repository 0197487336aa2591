import type { CAC } from 'cac';
import { toTerminalText } from '../core/text.js';
import type { PruneResult, WorkspaceRow } from '../engine/workspaces/prune.js';
import type { Context } from './frame/context.js';

/**
 * Registers `svc workspace list|prune`: the worktrees and branches svc made, and their housekeeping
 * (docs/workspaces.md).
 */
export function registerWorkspace(cli: CAC, ctx: Context): void {
  cli
    .command(
      'list',
      'Each worktree and branch svc made: its task, whether the worktree is ' +
        'clean, dirty or removed, whether the branch is merged into its base',
    )
    .option('--json', 'Print JSON')
    .action(async (opts: Record<string, unknown>) => {
      const { listWorkspaces } = await import('../engine/workspaces/prune.js');
      const rows = await listWorkspaces(ctx.store());
      if (opts.json) return ctx.json({ workspaces: rows });
      formatRows(rows).forEach((line) => ctx.print(line));
    });
  cli
    .command(
      'prune',
      'Remove the clean worktrees svc made for ended tasks; --merged also deletes ' +
        'their branches merged into the base. Never touches what svc did not make',
    )
    .option('--merged', 'Also delete the branches svc made whose commits are all in their base')
    .option('--dry-run', 'Say what would be done; change nothing')
    .option('--json', 'Print JSON')
    .example('svc workspace prune --merged --dry-run')
    .action(async (opts: Record<string, unknown>) => {
      const { pruneWorkspaces } = await import('../engine/workspaces/prune.js');
      const result = await pruneWorkspaces(ctx.store(), { merged: opts.merged === true, dryRun: opts.dryRun === true });
      if (opts.json) return ctx.json(result);
      formatPrune(result).forEach((line) => ctx.print(line));
    });
}

// --- internal ---

function formatRows(rows: readonly WorkspaceRow[]): string[] {
  if (!rows.length) return ['no worktree or branch made by svc'];
  return rows.map((row) => {
    const kept = row.kept ? ` (kept: ${toTerminalText(row.kept)})` : '';
    return (
      `${row.taskId}  ${row.task}  worktree ${row.worktree}${kept} ` +
      `${toTerminalText(row.path)}  branch ${toTerminalText(row.branch)} ` +
      `${row.branchState}` +
      `${row.branchState === 'merged' || row.branchState === 'unmerged' ? ` (base ${toTerminalText(row.base)})` : ''}` +
      ` ` +
      ` ${toTerminalText(row.repo)}${row.worktree === 'elsewhere' ? ` on ${toTerminalText(row.host)}` : ''}`
    );
  });
}

function formatPrune(result: PruneResult): string[] {
  const verb = (done: string, would: string) => (result.dryRun ? would : done);
  const lines = result.steps.map((step) => {
    if (step.action === 'remove-worktree')
      return `${step.taskId}: ${verb('removed', 'would remove')} worktree ${toTerminalText(step.path)}`;
    if (step.action === 'delete-branch')
      return `${step.taskId}: ${verb('deleted', 'would delete')} branch ${toTerminalText(step.branch)} (merged)`;
    return `${step.taskId}: ${verb('forgot', 'would forget')} its record (data/workspaces/${step.taskId}.json)`;
  });
  for (const left of result.left) lines.push(`${left.taskId}: left as it is: ${toTerminalText(left.reason)}`);
  return lines.length ? lines : ['nothing to prune'];
}
