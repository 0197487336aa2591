import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readLockOwner } from '../../fs/lock/owner.js';
import { hasProcFs, isProcessAlive, readProcessInfo } from '../../fs/process.js';
import type { Paths } from '../../store/disk/paths.js';
import { readPid } from './pid.js';

/** A process found to be the daemon of a root, and what proves it. */
export interface FoundDaemon {
  pid: number;
  /** How it was recognised, for messages: "holds the instance lock", "runs `svc daemon run` for this root". */
  proof: string;
}

/**
 * Looks for the daemon of `paths.root` without asking its socket (which did not answer): the
 * live owner of the instance lock, or a process named by the pid file or the lock that runs
 * `svc daemon run` for this root. A pid alone proves nothing: after a crash the pid file may name
 * a zombie or, once the pid is recycled, an unrelated process. Null when no such process runs.
 */
export function findSilentDaemon(paths: Paths): FoundDaemon | null {
  const owner = readLockOwner(paths.instanceLock);
  const candidates = [
    ...new Set([owner?.pid, readPid(paths)].filter((pid): pid is number => pid !== undefined && pid !== null)),
  ];
  for (const pid of candidates) {
    if (!isProcessAlive(pid)) continue;
    const mine = isDaemonOf(pid, paths.root);
    if (mine === true) return { pid, proof: `runs \`svc daemon run\` for ${paths.root}` };
    if (mine === null && owner?.pid === pid && owner.fresh)
      return { pid, proof: `holds the instance lock ${paths.instanceLock}` };
  }
  return null;
}

/**
 * Whether `pid` runs `svc daemon run` for `root` (its argv and its `SVC_HOME`, else `~/.svc`, from
 * `/proc`). Null when this cannot be told (no `/proc`, as on macOS, or a process of another user).
 */
export function isDaemonOf(pid: number, root: string): boolean | null {
  if (!hasProcFs()) return null;
  const info = readProcessInfo(pid);
  if (!info) return false; // gone, or a zombie
  if (!info.argv.some((arg, i) => arg === 'daemon' && info.argv[i + 1] === 'run')) return false;
  if (!info.env) return null; // another user's process: its root cannot be read
  const home = info.env.SVC_HOME?.trim();
  const itsRoot = home ? resolve(info.cwd ?? '/', home) : join(info.env.HOME || homedir(), '.svc');
  return itsRoot === resolve(root);
}
