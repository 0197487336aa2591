import { lstatSync, lutimesSync, readlinkSync, symlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SvcError } from '../../core/errors.js';
import { isProcessAlive } from '../process.js';
import { LOCK_STALE_MS } from './owner.js';

/**
 * The mark of the one daemon that changes a tree's tasks under memory locks (`fs/lock/tree-locks.ts`):
 * `tasks/.locks/memory-locks`, a symlink naming `<host> <pid>`, in the tree itself so that every writer of
 * the tree sees it, also another daemon whose `data/` is elsewhere (several daemons may share one `tasks/`).
 * Its owner refreshes its time every second; it counts while its process lives (on this host) and
 * while it was refreshed within `LOCK_STALE_MS` (any host).
 */
export const MEMORY_LOCKS_MARK = 'memory-locks';

/** The mark a daemon puts in a task's lock directory once none of its own changes of that task is in flight. */
export const FENCED_MARK = 'fenced';

/**
 * Called by a writer that has just taken the lock directory `lockPath` of a task: when a live daemon
 * changes the tree under memory locks (its mark beside the lock), waits until the daemon has marked the
 * lock fenced, that is until no change of the daemon that began before the lock directory existed is
 * still being written (every later one sees the directory and waits for it). Without such a daemon,
 * one `readlink` that finds nothing. A daemon that does not mark it within `deadline` is `locked`.
 */
export async function waitForFence(
  lockPath: string,
  { deadline, what }: { deadline: number; what: string },
): Promise<void> {
  const markPath = join(dirname(lockPath), MEMORY_LOCKS_MARK);
  const owner = readMark(markPath);
  if (owner === null) return;
  for (let pause = 1; ; pause = Math.min(pause * 2, 20)) {
    if (lstatSync(join(lockPath, FENCED_MARK), { throwIfNoEntry: false })) return;
    // the daemon is gone, or let go of the tree: nothing of it in flight
    if (readMark(markPath)?.text !== owner.text) return;
    if (Date.now() >= deadline)
      throw new SvcError(
        'locked',
        `${what} is being changed by the daemon (${owner.text}), which did not let go of it.`,
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

/** Refreshes this process's mark (its time), so that writers on every host count it; false when it is not ours. */
export function refreshMemoryLocks(locksDir: string): boolean {
  const markPath = join(locksDir, MEMORY_LOCKS_MARK);
  if (readlinkOrNull(markPath) !== `${hostname()} ${process.pid}`) return false;
  const now = new Date();
  lutimesSync(markPath, now, now);
  return true;
}

/** The mark at `markPath` when it counts (not this process's own: a process never waits for itself); else null. */
export function readMark(markPath: string): { text: string } | null {
  const text = readlinkOrNull(markPath);
  if (text === null) return null;
  const [host, pidText] = text.split(' ');
  const pid = Number(pidText);
  if (host === hostname() && (pid === process.pid || !Number.isSafeInteger(pid) || !isProcessAlive(pid))) return null;
  const refreshed = lstatSync(markPath, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return Date.now() - refreshed < LOCK_STALE_MS ? { text } : null;
}

/** A symlink's text, or null when there is none. */
export function readlinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
