import { randomUUID } from 'node:crypto';
import type { CAC } from 'cac';
import { SvcError } from '../../core/errors.js';
import { toTerminalText } from '../../core/text.js';
import type { MoveResult } from '../../tools/operator.js';
import type { Context } from '../frame/context.js';
import { formatMove, toText } from '../output/format.js';
import { runBulk, type BulkOutcome, type Call } from '../frame/bulk-run.js';
import { operate } from '../frame/operate.js';
import { startProgress, type Progress } from '../frame/progress.js';
import { toCaller, withFlag, withLeaseOptions } from './caller.js';
import { toUsageError } from '../frame/usage.js';

export type { BulkOutcome } from '../frame/bulk-run.js';

/**
 * Registers the moves that take several ids (`svc task promote|cancel|block|unblock|resurrect <id>...`):
 * each id is one call (sent in batches through a running daemon), in order; each is reported; the exit code is 1 when
 * any failed. With one id,
 * a failure is reported as any command's error.
 */
export function registerTaskBulk(cli: CAC, ctx: Context): void {
  const json = ['--json', 'Print JSON (a list of {id, ok, move | error} when several ids are given)'] as const;
  cli
    .command('promote <...ids>', 'Move tasks from backlog to ready')
    .option(...json)
    .example('svc task promote 007 008 009')
    .action(async (ids: string[], opts: Record<string, unknown>) =>
      runEach(ctx, { ids, opts }, (id) => ['operator_task_promote', { taskId: id }]),
    );
  cli
    .command('resurrect <...ids>', 'Move deadlettered tasks back to ready, resetting their failure count')
    .option(...json)
    .action(async (ids: string[], opts: Record<string, unknown>) =>
      runEach(ctx, { ids, opts }, (id) => ['operator_task_resurrect', { taskId: id }]),
    );
  cli
    .command('unblock <...ids>', 'Move blocked tasks to ready (or to backlog with --to backlog)')
    .option('--to <status>', 'ready (the default) or backlog')
    .option(...json)
    .example('svc task unblock 007 --to backlog')
    .action(async (ids: string[], opts: Record<string, unknown>) => {
      const to = toUnblockTarget(opts.to, ids.map(String));
      await runEach(ctx, { ids, opts }, (id) => ['operator_task_unblock', { taskId: id, ...(to ? { to } : {}) }]);
    });
  withLeaseOptions(
    cli
      .command('cancel <...ids>', 'Cancel tasks (terminal)')
      .option('--reason <text>', 'Why')
      .option(...json),
  ).action(async (ids: string[], opts: Record<string, unknown>) => {
    const command = `svc task cancel {id}${withFlag('reason', opts.reason)}`;
    await runEach(ctx, { ids, opts }, (id) => [
      'operator_task_cancel',
      { taskId: id, ...toCaller(opts, command), reason: toText(opts.reason) },
    ]);
  });
  withLeaseOptions(
    cli
      .command('block <...ids>', 'Block tasks on something outside the task graph')
      .option('--reason <text>', 'What they wait for (required)')
      .option(...json),
  ).action(async (ids: string[], opts: Record<string, unknown>) => {
    if (!toText(opts.reason)?.trim())
      throw new SvcError(
        'validation_error',
        `Blocking ${ids.map(String).join(' ')} needs a reason: none was given.`,
        `Say what the task waits for: svc task block ${ids.map(String).join(' ')} --reason "waiting for API keys"`,
      );
    const command = `svc task block {id}${withFlag('reason', opts.reason)}`;
    await runEach(ctx, { ids, opts }, (id) => [
      'operator_task_block',
      { taskId: id, ...toCaller(opts, command), reason: toText(opts.reason) ?? '' },
    ]);
  });
}

// --- internal ---

/** A command's ids and its options, as cac hands them. */
interface Invocation {
  ids: readonly string[];
  opts: Record<string, unknown>;
}

async function runEach(ctx: Context, { ids, opts }: Invocation, call: Call): Promise<void> {
  const args = ids.map(String);
  if (args.length === 1) {
    const move = await operate<MoveResult>(ctx, ...call(args[0]!));
    return opts.json ? ctx.json(move) : printMove(ctx, move);
  }
  // One request id for the command; each call sends `<id>.<n>`, so a rerun with the id replays each.
  const base = ctx.requestId ?? randomUUID();
  ctx.requestBase = base;
  const json = opts.json === true;
  const progress = startProgress(ctx, { what: 'Done', total: args.length, json });
  const outcomes: BulkOutcome[] = [];
  const interrupt = watchInterrupt();
  try {
    // Each outcome is reported as soon as those before it are: an interrupted run has printed what it did.
    await runBulk(ctx, args, {
      base,
      call,
      stopped: interrupt.stopped,
      done: (outcome) => {
        outcomes.push(outcome);
        if (!json) report(ctx, progress, outcome);
        progress.add(1);
      },
    });
  } finally {
    interrupt.dispose();
    progress.end();
  }
  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  if (failed) ctx.exitCode = 1;
  if (json) ctx.json(outcomes);
  else if (failed)
    ctx.io.stderr(
      `svc: ${failed} of ${outcomes.length} failed; ` +
        `${failed === outcomes.length ? 'none was done' : 'the others were done'}.\n`,
    );
  if (outcomes.length < args.length) reportInterrupted(ctx, args.slice(outcomes.length));
}

/** Stopped by a signal: what was not tried, and how to go on. */
function reportInterrupted(ctx: Context, rest: readonly string[]): void {
  ctx.exitCode = 130;
  ctx.io.stderr(
    `svc: interrupted: ${rest.length} not tried (each one done is printed above): ` +
      `${rest.map((id) => toTerminalText(id)).join(' ')}\nhint: run the command again with these ids to go on.\n`,
  );
}

/**
 * SIGINT or SIGTERM: no new call is started; the calls under way finish and are reported. A second signal ends the
 * process.
 */
function watchInterrupt(): { stopped: () => boolean; dispose(): void } {
  let signals = 0;
  const stop = () => {
    if (++signals > 1) process.exit(130);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    stopped: () => signals > 0,
    dispose() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

function report(ctx: Context, progress: Progress, outcome: BulkOutcome): void {
  if (outcome.ok) return progress.print(toMoveLines(ctx, outcome.move));
  progress.clear();
  ctx.io.stderr(
    `svc: ${toTerminalText(outcome.id)}: ` +
      `${outcome.error.message}\n${outcome.error.hint ? `hint: ${outcome.error.hint}\n` : ''}`,
  );
}

/** A move, and how to make a task unblocked into backlog ready. */
function printMove(ctx: Context, move: MoveResult): void {
  for (const line of toMoveLines(ctx, move)) ctx.print(line);
}

function toMoveLines(ctx: Context, move: MoveResult): string[] {
  const lines = [formatMove(move, ctx.paint)];
  if (move.from === 'blocked' && move.to === 'backlog')
    lines.push(`\`svc task promote ${move.taskId}\` makes it ready.`);
  return lines;
}

/** `--to` of `svc task unblock`: ready, backlog, or absent (ready). */
function toUnblockTarget(value: unknown, ids: readonly string[]): 'ready' | 'backlog' | undefined {
  if (value === undefined) return undefined;
  if (value === 'ready' || value === 'backlog') return value;
  throw toUsageError(
    new SvcError(
      'validation_error',
      `svc task unblock --to takes ready or backlog, not ${JSON.stringify(String(value))}: nothing was unblocked.`,
      `Run svc task unblock ${ids.join(' ')} (to ready) or svc task unblock ${ids.join(' ')} --to backlog.`,
    ),
  );
}
