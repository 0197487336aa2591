import { readFile } from 'node:fs/promises';
import type { CAC } from 'cac';
import { SvcError } from '../../core/errors.js';
import { toTerminalText } from '../../core/text.js';
import type { StoredTask } from '../../store/disk/task-file.js';
import type { Context } from '../frame/context.js';
import { toText } from '../output/format.js';
import { operate } from '../frame/operate.js';
import { listRuns, pickRun } from './logs-runs.js';
import { asUsage } from '../frame/usage.js';

/**
 * Registers `svc task logs <id>`: the logs of a task's runs (local agents and checks,
 * `data/logs/runs/<task id>/`), oldest run first, control characters escaped; a run through the gateway or the plugin
 * is a line
 * naming its agent and session, its output being in the gateway (docs/approvals-and-logs.md).
 */
export function registerTaskLogs(cli: CAC, ctx: Context): void {
  cli
    .command(
      'logs <id>',
      "Print the logs of a task's runs (local agents, checks), oldest first\n<id> " +
        'is a full id, a unique prefix or a bare sequence (007, -007, 7)',
    )
    .option('--run <n>', 'Only the n-th run (1 is the first; the list numbers them)')
    .option('--follow', "Follow a running agent's log as it is written, until the run ends (the last run, or --run n)")
    .option('--json', 'Print JSON: each run with its text')
    .example('svc task logs 007 --follow')
    .action(async (id: string, opts: Record<string, unknown>) => {
      const run = opts.run === undefined ? undefined : asUsage(() => toRunNumber(opts.run));
      if (opts.follow && opts.json)
        throw new SvcError(
          'validation_error',
          '--follow prints the log as it grows; --json prints it once.',
          'Drop one of them.',
        );
      const stored = await operate<StoredTask>(ctx, 'operator_task_show', { taskId: String(id) });
      const taskId = stored.task.id;
      if (opts.follow) return (await import('./logs-follow.js')).followRunLog(ctx, taskId, run);
      const logs = await listRuns(ctx, taskId);
      const chosen =
        run === undefined
          ? logs.map((entry, i) => ({ n: i + 1, ...entry }))
          : [{ n: run, ...pickRun(taskId, logs, run) }];
      const texts = await Promise.all(
        chosen.map(async (entry) =>
          entry.path === null ? `${entry.note}\n` : readFile(entry.path, 'utf8').catch(() => ''),
        ),
      );
      if (opts.json) return ctx.json(chosen.map(({ note: _note, ...entry }, i) => ({ ...entry, text: texts[i] })));
      if (!chosen.length) return ctx.print(`(${taskId} has no run logs yet)`);
      texts.forEach((text) =>
        ctx.io.stdout(toTerminalText(text.endsWith('\n') ? text : `${text}\n`, { multiline: true })),
      );
    });
}

// --- internal ---

function toRunNumber(value: unknown): number {
  const text = toText(value) ?? '';
  const n = Number(text);
  if (/^\d+$/.test(text) && n >= 1) return n;
  throw new SvcError(
    'validation_error',
    `--run takes a run number from 1 (found ${JSON.stringify(text)}).`,
    'Run `svc task logs <id>` to see the runs in order.',
  );
}
