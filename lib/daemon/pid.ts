import { readFileSync } from 'node:fs';
import { hasCode } from '../core/errors.js';
import type { Paths } from '../store/paths.js';

/** The pid in `data/daemon.pid`, or null when absent or unreadable. */
export function readPid(paths: Paths): number | null {
  try {
    const pid = Number.parseInt(readFileSync(paths.pidFile, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** True when a process with this pid exists (signal 0). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return hasCode(err, 'EPERM');
  }
}
