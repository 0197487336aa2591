import type { Paths } from '../../store/disk/paths.js';
import { spawnDetached, terminate, waitForExit, waitForHealthy } from '../control.js';
import { findSilentDaemon } from '../instance/identity.js';
import { controlService } from '../service.js';
import type { ServiceOptions } from '../service-file.js';

/** Options of `restartDaemon`. */
export interface RestartOptions {
  paths: Paths;
  /** The installed service: used when the supervisor has it, else the daemon is started directly. */
  service: ServiceOptions;
  /** How to run `svc daemon run` detached: node, its arguments, the environment. */
  command: { node: string; args: string[]; env: Record<string, string | undefined> };
  /** How long a stuck daemon gets after SIGTERM before SIGKILL (10 s). */
  stopTimeoutMs?: number;
  /** How long the new daemon has to become healthy (20 s). */
  startTimeoutMs?: number;
}

/** How a restart went. */
export interface RestartResult {
  how: 'supervisor' | 'direct';
  pid: number | null;
}

/**
 * Restarts the daemon: a live but failing one is stopped first (SIGTERM, then SIGKILL); then it is
 * started through the supervisor when the service is installed, else detached, as `svc daemon
 * start` does; resolves once it is healthy, throws (`unavailable`, with the log tail) when not.
 */
export async function restartDaemon(options: RestartOptions): Promise<RestartResult> {
  const { paths } = options;
  const supervised = await controlService(options.service, 'stop');
  await stopStuck(paths, options.stopTimeoutMs ?? 10_000);
  let exited = (): string | null => null;
  let how: RestartResult['how'] = 'supervisor';
  if (!supervised || !(await controlService(options.service, 'start'))) {
    how = 'direct';
    exited = spawnDetached({ ...options.command, logFile: paths.daemonLog }).exited;
  }
  const up = await waitForHealthy(paths, options.startTimeoutMs ?? 20_000, exited);
  return { how, pid: up.pid };
}

// --- internal ---

/**
 * Stops a daemon of this root that still runs (hung): SIGTERM, then SIGKILL. Only a process
 * proven to be this root's daemon is signalled (the live holder of its instance lock, or one
 * running `svc daemon run` for it), never whatever a stale pid file names. A killed daemon that
 * is not reaped yet (a zombie) counts as gone: its lock is taken over at once.
 */
async function stopStuck(paths: Paths, timeoutMs: number): Promise<void> {
  const pid = findSilentDaemon(paths)?.pid;
  if (pid === undefined) return;
  terminate(pid);
  if (await waitForExit(pid, timeoutMs)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  await waitForExit(pid, 5000);
}
