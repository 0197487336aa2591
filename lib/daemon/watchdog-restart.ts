import { readFileSync } from 'node:fs';
import { platform } from 'node:os';
import type { Paths } from '../store/paths.js';
import { spawnDetached, terminate, waitForExit, waitForHealthy } from './control.js';
import { isAlive, readPid } from './pid.js';
import { controlService, type ServiceOptions } from './service.js';
import { isZombie } from './watchdog-check.js';

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
 * Stops the daemon named by the pid file if it still runs (hung): SIGTERM, then SIGKILL. A killed
 * one not yet reaped (a zombie still holds its pid) is waited for: its lock frees once it is gone.
 */
async function stopStuck(paths: Paths, timeoutMs: number): Promise<void> {
  const pid = readPid(paths);
  if (pid === null || !isAlive(pid)) return;
  if (!isDaemonProcess(pid)) {
    if (isZombie(pid)) await waitForExit(pid, timeoutMs);
    return;
  }
  terminate(pid);
  if (await waitForExit(pid, timeoutMs)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  await waitForExit(pid, 5000);
}

/** On Linux, checks that a pid (from a pid file that may be stale) still runs `svc daemon run`. */
function isDaemonProcess(pid: number): boolean {
  if (platform() !== 'linux') return !isZombie(pid);
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('daemon\0run');
  } catch {
    return false;
  }
}
