import { SvcError } from '../../core/errors.js';
import { toPaths } from '../../store/disk/paths.js';
import type { RunLogEntry } from '../../store/records/run-logs.js';
import type { Context } from '../frame/context.js';
import type { GatewayRun } from './logs-none.js';

/** The run logs of a task, oldest run first. */
export async function listLogs(ctx: Context, taskId: string): Promise<RunLogEntry[]> {
  return (await import('../../store/records/run-logs.js')).listRunLogs(toPaths(ctx.root), taskId);
}

/**
 * A run as `svc task logs` lists it: a run log, or a run through the gateway or the plugin (no `path`; `note` names its
 * session).
 */
export type TaskRun =
  | (RunLogEntry & { note?: undefined })
  | (Omit<RunLogEntry, 'path' | 'file' | 'kind'> & { path: null; file: null; kind: GatewayRun['kind']; note: string });

/** Every run of a task, oldest first: its run logs and its runs through the gateway or the plugin. */
export async function listRuns(ctx: Context, taskId: string): Promise<TaskRun[]> {
  const { describeGatewayRun, listGatewayRuns } = await import('./logs-none.js');
  const [logs, gateway] = await Promise.all([listLogs(ctx, taskId), listGatewayRuns(ctx, taskId)]);
  const others: TaskRun[] = gateway.map((run) => ({
    path: null,
    file: null,
    kind: run.kind,
    name: run.name,
    session: run.session,
    startedAt: run.startedAt,
    ended: null,
    bytes: 0,
    note: describeGatewayRun(taskId, run),
  }));
  return [...logs, ...others].sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? ''));
}

/** The n-th run (1-based) of a task's logs; a number past the last is a `not_found` saying how many there are. */
export function pickRun<T>(taskId: string, logs: readonly T[], n: number): T {
  const entry = logs[n - 1];
  if (entry) return entry;
  throw new SvcError(
    'not_found',
    `${taskId} has ${logs.length} run log${logs.length === 1 ? '' : 's'}; there is no run ${n}.`,
    logs.length
      ? `Pass --run 1 to ${logs.length}, or leave --run out for all.`
      : 'Its first run writes one once an agent runs it.',
  );
}
