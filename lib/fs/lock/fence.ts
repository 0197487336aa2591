import { lstatSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SvcError } from '../../core/errors.js';
import { isProcessAlive } from '../process.js';

/**
 * The mark a daemon puts beside its instance lock once it changes tasks under memory locks
 * (`fs/lock/tree-locks.ts`): `data/memory-locks`, a symlink naming `<host> <pid>`. It counts only while
 * the instance lock names the same owner (not inside the lock directory: a new entry there would
 * change the mtime proper-lockfile refreshes and checks).
 */
export const MEMORY_LOCKS_MARK = 'memory-locks';

/** The mark a daemon puts in a task's lock directory once none of its own changes of that task is in flight. */
export const FENCED_MARK = 'fenced';

/**
 * Called by a writer that has just taken the lock directory `lockPath` of a task: when a live daemon
 * of this host changes the tree under memory locks (the mark in its instance lock `daemonLock`),
 * waits until the daemon has marked the lock fenced, that is until no change of the daemon that
 * began before the lock directory existed is still being written (every later one sees the
 * directory and waits for it). Without such a daemon, one `readlink` that finds nothing. A daemon
 * that does not mark it within `deadline` is `locked`.
 */
export async function waitForFence(
  lockPath: string,
  { daemonLock, deadline, what }: { daemonLock: string; deadline: number; what: string },
): Promise<void> {
  const owner = readMark(daemonLock);
  if (owner === null) return;
  const mark = readlinkOrNull(join(dirname(daemonLock), MEMORY_LOCKS_MARK));
  for (let pause = 1; ; pause = Math.min(pause * 2, 20)) {
    if (lstatSync(join(lockPath, FENCED_MARK), { throwIfNoEntry: false })) return;
    // the daemon is gone, or let go of the tree: nothing of it in flight
    if (!isProcessAlive(owner) || readlinkOrNull(join(daemonLock, 'owner')) !== mark) return;
    if (Date.now() >= deadline)
      throw new SvcError(
        'locked',
        `${what} is being changed by the daemon (pid ${owner}), which did not let go of it.`,
        {
          hint: 'The daemon may be busy or hung: retry in a moment; `svc daemon status` tells whether it answers.',
        },
      );
    await sleep(pause);
  }
}

/** Writes the fenced mark into a lock directory (nothing when it is gone or already marked). */
export function markFenced(lockPath: string): void {
  try {
    symlinkSync(String(process.pid), join(lockPath, FENCED_MARK));
  } catch {
    // released meanwhile, or marked already
  }
}

/** Puts this process's mark beside its instance lock `daemonLock` (see `MEMORY_LOCKS_MARK`), replacing a dead one's. */
export function markMemoryLocks(daemonLock: string): void {
  const mark = join(dirname(daemonLock), MEMORY_LOCKS_MARK);
  rmSync(mark, { force: true });
  symlinkSync(`${hostname()} ${process.pid}`, mark);
}

// --- internal ---

/** The pid of the daemon whose mark is there and who holds the instance lock, when it is of this host; else null. */
function readMark(daemonLock: string): number | null {
  const text = readlinkOrNull(join(dirname(daemonLock), MEMORY_LOCKS_MARK));
  if (text === null || readlinkOrNull(join(daemonLock, 'owner')) !== text) return null;
  const [host, pidText] = text.split(' ');
  const pid = Number(pidText);
  return host === hostname() && Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

function readlinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
