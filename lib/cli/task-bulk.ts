import { randomUUID } from 'node:crypto';
import type { CAC } from 'cac';
import { SvcError, toSvcError } from '../core/errors.js';
import { toTerminalText } from '../core/text.js';
import type { MoveResult } from '../tools/operator.js';
import type { Context } from './context.js';
import { formatMove, toText } from './format.js';
import { operate } from './operate.js';
import { toCaller, withFlag, withLeaseOptions } from './task-caller.js';

/** One id's outcome in a bulk command (`--json` prints the list). */
export type BulkOutcome = { id: string; ok: true; move: MoveResult } | { id: string; ok: false; error: ReturnType<SvcError['toJSON']>['error'] };

/**
 * Registers the moves that take several ids (`svc task promote|cancel|block|unblock|resurrect <id>...`):
 * each id is one call, in order; each is reported; the exit code is 1 when any failed. With one id,
 * a failure is reported as any command's error.
 */
export function registerTaskBulk(cli: CAC, ctx: Context): void {
  const json = ['--json', 'Print JSON (a list of {id, ok, move | error} when several ids are given)'] as const;
  cli.command('promote <...ids>', 'Move tasks from backlog to ready').option(...json).example('svc task promote 007 008 009')
    .action(async (ids: string[], opts: Record<string, unknown>) => runEach(ctx, ids, opts, (id) => ['operator_task_promote', { taskId: id }]));
  cli.command('resurrect <...ids>', 'Move deadlettered tasks back to ready, resetting their failure count').option(...json)
    .action(async (ids: string[], opts: Record<string, unknown>) => runEach(ctx, ids, opts, (id) => ['operator_task_resurrect', { taskId: id }]));
  cli.command('unblock <...ids>', 'Move blocked tasks back to ready, or to backlog when they were blocked from there').option(...json)
    .action(async (ids: string[], opts: Record<string, unknown>) => runEach(ctx, ids, opts, (id) => ['operator_task_unblock', { taskId: id }]));
  withLeaseOptions(cli.command('cancel <...ids>', 'Cancel tasks (terminal)').option('--reason <text>', 'Why').option(...json))
    .action(async (ids: string[], opts: Record<string, unknown>) => {
      const command = `svc task cancel {id}${withFlag('reason', opts.reason)}`;
      await runEach(ctx, ids, opts, (id) => ['operator_task_cancel', { taskId: id, ...toCaller(opts, command), reason: toText(opts.reason) }]);
    });
  withLeaseOptions(cli.command('block <...ids>', 'Block tasks on something outside the task graph').option('--reason <text>', 'What they wait for (required)').option(...json))
    .action(async (ids: string[], opts: Record<string, unknown>) => {
      if (!toText(opts.reason)?.trim()) throw new SvcError('validation_error', `Blocking ${ids.map(String).join(' ')} needs a reason: none was given.`, `Say what the task waits for: svc task block ${ids.map(String).join(' ')} --reason "waiting for API keys"`);
      const command = `svc task block {id}${withFlag('reason', opts.reason)}`;
      await runEach(ctx, ids, opts, (id) => ['operator_task_block', { taskId: id, ...toCaller(opts, command), reason: toText(opts.reason) ?? '' }]);
    });
}

// --- internal ---

type Call = (id: string) => [tool: string, params: Record<string, unknown>];

async function runEach(ctx: Context, ids: readonly string[], opts: Record<string, unknown>, call: Call): Promise<void> {
  const args = ids.map(String);
  if (args.length === 1) {
    const move = await operate<MoveResult>(ctx, ...call(args[0]!));
    return opts.json ? ctx.json(move) : printMove(ctx, move);
  }
  // One request id for the command; each call sends `<id>.<n>`, so a rerun with the id replays each.
  ctx.requestBase = ctx.requestId ?? randomUUID();
  const outcomes: BulkOutcome[] = [];
  for (const [n, id] of args.entries()) {
    ctx.requestId = `${ctx.requestBase}.${n + 1}`;
    outcomes.push(await runOne(ctx, id, call));
  }
  if (outcomes.some((outcome) => !outcome.ok)) ctx.exitCode = 1;
  if (opts.json) return ctx.json(outcomes);
  for (const outcome of outcomes) {
    if (outcome.ok) printMove(ctx, outcome.move);
    else ctx.io.stderr(`svc: ${toTerminalText(outcome.id)}: ${outcome.error.message}\n${outcome.error.hint ? `hint: ${outcome.error.hint}\n` : ''}`);
  }
  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  if (failed) ctx.io.stderr(`svc: ${failed} of ${outcomes.length} failed; ${failed === outcomes.length ? 'none was done' : 'the others were done'}.\n`);
}

/** A move, and where an unblocked task went when that was not ready. */
function printMove(ctx: Context, move: MoveResult): void {
  ctx.print(formatMove(move, ctx.paint));
  if (move.from === 'blocked' && move.to === 'backlog') ctx.print(`It was blocked from backlog, so it went back there; \`svc task promote ${move.taskId}\` makes it ready.`);
}

async function runOne(ctx: Context, id: string, call: Call): Promise<BulkOutcome> {
  try {
    return { id, ok: true, move: await operate<MoveResult>(ctx, ...call(id)) };
  } catch (err) {
    return { id, ok: false, error: (err instanceof SvcError ? err : toSvcError(err)).toJSON().error };
  }
}
