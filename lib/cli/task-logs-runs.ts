import { SvcError } from '../core/errors.js';
import { toPaths } from '../store/paths.js';
import type { RunLogEntry } from '../store/run-logs.js';
import type { Context } from './context.js';

/** The run logs of a task, oldest run first. */
export async function listLogs(ctx: Context, taskId: string): Promise<RunLogEntry[]> {
  return (await import('../store/run-logs.js')).listRunLogs(toPaths(ctx.root), taskId);
}

/** The n-th run (1-based) of a task's logs; a number past the last is a `not_found` saying how many there are. */
export function pickRun(taskId: string, logs: readonly RunLogEntry[], n: number): RunLogEntry {
  const entry = logs[n - 1];
  if (entry) return entry;
  throw new SvcError('not_found', `${taskId} has ${logs.length} run log${logs.length === 1 ? '' : 's'}; there is no run ${n}.`, logs.length ? `Pass --run 1 to ${logs.length}, or leave --run out for all.` : 'Its first run writes one once an agent runs it.');
}
