import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import type { OrgChart } from '../../org/schema.js';
import type { CheckOutcome } from '../../store/changes/gates/check-result.js';
import type { Store } from '../../store/commit/store.js';
import type { StoredTask } from '../../store/disk/task-file.js';
import { findTaskWorktreeLink } from '../../workspace/links.js';
import { openCheckLog } from './log.js';
import { writePid } from './pid-file.js';
import { runCheckProcess, type RunningCheck } from './process.js';

/**
 * One check of a task to run: the task as read, the check's name, the lease's session, and where the check's process
 * group is recorded.
 */
export interface RunCheckOptions {
  store: Store;
  /** The environment the check starts from (PATH, HOME, ...). */
  env: Record<string, string | undefined>;
  stored: StoredTask;
  name: string;
  session: string;
  org: OrgChart;
  /** The record of the check's process group (see pid-file.ts). */
  pidFile: string;
  onCheck: (check: RunningCheck) => void;
}

/**
 * Runs one check of a task, in its worktree, into its log; null when it was ended (the task cancelled, or the daemon
 * stopping).
 */
export async function runCheck(options: RunCheckOptions): Promise<CheckOutcome | null> {
  const { stored, name, session, org, pidFile, onCheck } = options;
  const { task } = stored;
  const def = org.aof.checks[name];
  const cwd = def?.cwd ?? task.workspace?.path;
  const log = openCheckLog(options.store.paths, {
    taskId: task.id,
    check: name,
    session,
    startedAt: options.store.clock(),
  });
  let how = 'not run';
  try {
    // A check runs in the task's worktree: never through a symbolic link planted there since.
    const link =
      !def?.cwd && task.workspace
        ? await findTaskWorktreeLink(options.store.paths.workspaces, task.id, task.workspace.path)
        : null;
    if (!def || !cwd || link) {
      const why = !def
        ? `check ${name} is not defined under aof.checks of the org chart (any more)`
        : link
          ? `check ${name} not run: ${link}`
          : `check ${name} has no cwd and the task has no worktree to run it in`;
      log.write(Buffer.from(`${why}\n`));
      how = link
        ? 'not run: a symbolic link on the way to the worktree'
        : 'not run: the check is undefined or has no cwd';
      return { name, exitCode: null, signal: null, timedOut: false, durationMs: 0, tail: log.tail(), log: log.path };
    }
    const env = {
      ...options.env,
      SVC_TASK_ID: task.id,
      SVC_CHECK: name,
      ...(task.workspace ? { SVC_WORKSPACE: task.workspace.path, SVC_BRANCH: task.workspace.branch } : {}),
    };
    const marker = `${task.id}.${randomUUID()}`;
    const check = runCheckProcess({
      argv: def.run,
      cwd,
      env,
      timeoutMs: def.timeoutMs,
      log,
      marker,
      onStart: (pgid) => writePid(pidFile, pgid, marker),
    });
    onCheck(check);
    const exit = await check.ended;
    await unlink(pidFile).catch(() => undefined);
    if (exit.aborted && !exit.timedOut) {
      how = 'ended: the task was cancelled or the daemon stops';
      return null;
    }
    if (exit.timedOut)
      log.write(
        Buffer.from(`\n[svc] check ${name} timed out after ${def.timeoutMs} ms: its process group was ended\n`),
      );
    how = exit.timedOut
      ? `timed out after ${def.timeoutMs} ms`
      : exit.signal
        ? `killed by ${exit.signal}`
        : `exit code ${exit.exitCode}`;
    return {
      name,
      exitCode: exit.exitCode,
      signal: exit.signal,
      timedOut: exit.timedOut,
      durationMs: exit.durationMs,
      tail: log.tail(),
      log: log.path,
    };
  } finally {
    log.close(how, options.store.clock());
  }
}
