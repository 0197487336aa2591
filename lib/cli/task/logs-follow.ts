import { mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { toTerminalText } from '../../core/text.js';
import { watchChanges } from '../../fs/change-watch.js';
import { toPaths } from '../../store/disk/paths.js';
import type { RunLogEntry } from '../../store/records/run-logs.js';
import type { StoredTask } from '../../store/disk/task-file.js';
import type { Context } from '../frame/context.js';
import { operate } from '../frame/operate.js';
import { explainNoLog } from './logs-none.js';
import { listLogs, pickRun } from './logs-runs.js';

/**
 * How often a follow confirms, besides the log's own end line, that the run still runs (a daemon restarted meanwhile
 * writes none).
 */
const RECHECK_MS = 5000;

/**
 * `svc task logs <id> --follow`: prints the run's log and what is appended to it, woken by the
 * directory's change events, until its end line is written or the task no longer runs that session.
 * With no run yet, it waits for the first one while the task is ready or in progress, unless none
 * can come (its run is the gateway's, or no daemon runs: `explainNoLog`).
 */
export async function followRunLog(ctx: Context, taskId: string, run: number | undefined): Promise<void> {
  const dir = toPaths(ctx.root).runLogDir(taskId);
  mkdirSync(dir, { recursive: true });
  let entry: RunLogEntry | null = null;
  let offset = 0;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let busy = false;
  let again = false;
  let closed = false;
  return new Promise<void>((resolve, reject) => {
    const finish = (err?: unknown) => {
      closed = true;
      watch.close();
      clearInterval(recheck);
      return err ? reject(err) : resolve();
    };
    const look = async ({ confirm }: { confirm: boolean }): Promise<boolean> => {
      if (!entry) {
        const logs = await listLogs(ctx, taskId);
        if (run !== undefined && logs.length < run && (await isOver(ctx, taskId, null))) pickRun(taskId, logs, run);
        entry = run === undefined ? (logs.at(-1) ?? null) : (logs[run - 1] ?? null);
        if (!entry) return confirm && (await noLogComes(ctx, taskId, logs.length));
      }
      const text = await readFrom(entry.path, offset);
      if (text.cut) ctx.io.stderr('(the log was cut to its cap meanwhile; printing it again from its tail)\n');
      offset = text.offset;
      const chunk = pending + decoder.write(text.bytes);
      const lastNewline = chunk.lastIndexOf('\n');
      pending = chunk.slice(lastNewline + 1);
      const lines = chunk.slice(0, lastNewline + 1);
      if (lines) ctx.io.stdout(toTerminalText(lines, { multiline: true }));
      if (/^=== svc run ended: /m.test(lines)) return true;
      return confirm && (await isOver(ctx, taskId, entry.session));
    };
    const wake = ({ confirm }: { confirm: boolean } = { confirm: false }) => {
      if (closed) return;
      if (busy) return void (again = true);
      busy = true;
      look({ confirm }).then(
        (over) => {
          busy = false;
          if (over) return finish();
          if (again) {
            again = false;
            wake();
          }
        },
        (err: unknown) => finish(err),
      );
    };
    const watch = watchChanges(dir, () => wake());
    const recheck = setInterval(() => wake({ confirm: true }), RECHECK_MS);
    wake({ confirm: true });
  });
}

// --- internal ---

/**
 * Says so and returns true when no run log will come: the task is not ready or in progress, its run is the gateway's,
 * or no daemon runs.
 */
async function noLogComes(ctx: Context, taskId: string, logs: number): Promise<boolean> {
  const stored = await operate<StoredTask>(ctx, 'operator_task_show', { taskId });
  const why =
    stored.status !== 'in-progress' && stored.status !== 'ready'
      ? logs
        ? null
        : `(${taskId} has no run logs, and no run is under way)`
      : await explainNoLog(ctx, stored);
  if (why) ctx.print(why);
  return why !== null;
}

/**
 * The task no longer runs `session` (done, moved on, or leased to another session); with no session, it is not in
 * progress or ready.
 */
async function isOver(ctx: Context, taskId: string, session: string | null): Promise<boolean> {
  const stored = await operate<StoredTask>(ctx, 'operator_task_show', { taskId });
  if (session === null) return stored.status !== 'in-progress' && stored.status !== 'ready';
  return stored.status !== 'in-progress' || stored.task.lease?.sessionId !== session;
}

async function readFrom(path: string, offset: number): Promise<{ bytes: Buffer; offset: number; cut: boolean }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const cut = size < offset;
    const from = cut ? 0 : offset;
    const bytes = Buffer.alloc(size - from);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, from);
    return { bytes: bytes.subarray(0, bytesRead), offset: from + bytesRead, cut };
  } finally {
    await handle.close();
  }
}
