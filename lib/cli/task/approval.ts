import type { CAC } from 'cac';
import { compareText } from '../../core/compare.js';
import { SvcError } from '../../core/errors.js';
import { toTerminalText } from '../../core/text.js';
import { formatDuration } from '../../core/time/clock.js';
import type { DecisionResult } from '../../store/changes/approval.js';
import type { ListRow } from '../../store/listing/task-row.js';
import type { Context } from '../frame/context.js';
import { toText } from '../output/format.js';
import { operateWith } from '../frame/operate.js';
import { OPERATOR } from './caller.js';
import { toUsageError } from '../frame/usage.js';
import { toScopeLabel } from '../../store/disk/budget.js';
import { toBudgetOption } from './budget.js';

/**
 * Registers `svc task approve` and `svc task reject`: the `svc_task_approve` and `svc_task_reject`
 * tools, over the daemon's socket when one runs, else in this process on the files
 * (docs/approvals-and-logs.md).
 */
export function registerTaskApproval(cli: CAC, ctx: Context): void {
  cli
    .command('approve <id>', 'Approve the approval gate a task waits at: on to the next gate, or done after the last')
    .option('--gate <gate>', GATE_HELP)
    .option('--note <text>', 'Why (kept in the event and the gate history)')
    .option('--by <name>', `Who approves (default ${OPERATOR})`)
    .option('--budget-usd <n>', "A task paused for its budget: raise the task's budget to this many dollars")
    .option('--budget-tokens <n>', "A task paused for its budget: raise the task's budget to this many tokens")
    .option('--json', 'Print JSON')
    .example('svc task approve 007 --gate signoff --note "looks good"')
    .example('svc task approve 007 --budget-usd 5')
    .action(async (id: string, opts: Record<string, unknown>) =>
      decide(ctx, { tool: 'svc_task_approve', id: String(id) }, opts),
    );
  cli
    .command(
      'reject <id>',
      "Reject the approval gate a task waits at: back to the workflow's origin gate with the note as its blockers",
    )
    .option('--gate <gate>', GATE_HELP)
    .option('--note <text>', 'What must change (required)')
    .option('--by <name>', `Who rejects (default ${OPERATOR})`)
    .option('--json', 'Print JSON')
    .example('svc task reject 007 --gate signoff --note "the migration is missing"')
    .action(async (id: string, opts: Record<string, unknown>) => {
      if (!toText(opts.note)?.trim())
        throw toUsageError(
          new SvcError(
            'validation_error',
            'svc task reject needs --note: what must change.',
            `Run svc task reject ${id} --note "what must change".`,
          ),
        );
      await decide(ctx, { tool: 'svc_task_reject', id: String(id) }, opts);
    });
}

/**
 * The rows of `svc task list --awaiting`: blocked tasks waiting at an approval gate or for a budget, oldest wait first.
 */
export function toAwaitingRows(rows: readonly ListRow[]): ListRow[] {
  return rows
    .filter((row) => row.awaiting || row.budgetWait)
    .sort((a, b) => compareText(sinceOf(a), sinceOf(b)) || compareText(a.id, b.id));
}

/** One line per waiting task: id, gate (or `budget: ...`), how long it has waited, title. */
export function formatAwaiting(rows: readonly ListRow[], now: Date): string[] {
  if (!rows.length) return ['(no task waits for approval)'];
  const cells = rows.map((row) => [
    row.id,
    toTerminalText(row.awaiting?.gate ?? (row.budgetWait ? `budget: ${toScopeLabel(row.budgetWait)}` : '')),
    formatDuration(Math.max(0, now.getTime() - Date.parse(sinceOf(row)))),
    toTerminalText(row.title),
  ]);
  const widths = [0, 1, 2].map((i) =>
    Math.max(...cells.map((c) => c[i]!.length), ['ID', 'GATE', 'WAITING'][i]!.length),
  );
  const line = (c: string[]) => c.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  ');
  return [line(['ID', 'GATE', 'WAITING', 'TITLE']), ...cells.map(line)];
}

// --- internal ---

function sinceOf(row: ListRow): string {
  return row.awaiting?.since ?? row.budgetWait?.since ?? '';
}

const GATE_HELP =
  'The approval gate decided: applied only while the task still waits ' +
  'there (required where the workflow has several approval gates)';

/** A decision on a task's approval gate: the tool that takes it, and the task. */
interface Decision {
  tool: string;
  id: string;
}

async function decide(ctx: Context, { tool, id }: Decision, opts: Record<string, unknown>): Promise<void> {
  const note = toText(opts.note);
  const gate = toText(opts.gate);
  const params = {
    taskId: id,
    actor: toText(opts.by) ?? OPERATOR,
    ...(gate !== undefined ? { gate } : {}),
    ...(note !== undefined ? { note } : {}),
    ...(tool === 'svc_task_approve' ? toBudgetOption(opts, `svc task approve ${id}`) : {}),
  };
  const loaded = async () => [(await import('../../tools/approval.js')).APPROVAL_TOOLS].flat();
  const result = await operateWith<DecisionResult>(ctx, { tool, params }, loaded);
  if (opts.json) return ctx.json(result);
  ctx.print(toTerminalText(result.message));
}
