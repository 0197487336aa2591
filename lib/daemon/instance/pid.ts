import { readFileSync } from 'node:fs';
import { isProcessAlive } from '../../fs/process.js';
import type { Paths } from '../../store/disk/paths.js';

/** The pid in `data/daemon.pid`, or null when absent or unreadable. */
export function readPid(paths: Paths): number | null {
  try {
    const pid = Number.parseInt(readFileSync(paths.pidFile, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * True when a process with this pid exists and has not exited. A zombie (exited, not reaped: PID 1
 * of many containers never reaps) counts as gone, though `kill(pid, 0)` still answers for it.
 */
export function isAlive(pid: number): boolean {
  return isProcessAlive(pid);
}
