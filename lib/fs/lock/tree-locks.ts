import { type FSWatcher, lstatSync, mkdirSync, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../../core/errors.js';
import { isNetworkDir } from '../network-fs.js';
import { markFenced, markMemoryLocks } from './fence.js';
import { type HeldLock, type LockOptions, withLock } from './lock.js';
import { createMemoryLocks } from './memory.js';

/** Runs `fn` holding the lock of one task (its lock directory's path names it). */
export type TaskLocker = <T>(lockPath: string, options: LockOptions, fn: (lock: HeldLock) => Promise<T>) => Promise<T>;

/** Where a daemon's task locks live, and whether it holds the tree now. */
export interface TreeLockPlace {
  /** `tasks/.locks`. */
  locksDir: string;
  /** The daemon's instance lock (`data/daemon.pid.lock`), which gets the memory-locks mark. */
  daemonLock: string;
  /** True while the daemon holds its instance lock (not lost). */
  held: () => boolean;
}

/**
 * The task locks of a daemon (docs/architecture.md, "Commit protocol"): every change of a task
 * first takes the task's memory lock (a per-id queue: the daemon's changes of one task run one at a
 * time). Then, while the daemon holds the tree on a local disk, a change whose task has no lock
 * directory takes nothing more: one `lstat` instead of a lock directory's `mkdir`, owner symlink,
 * `unlink` and `rmdir`. A lock directory there (a writer outside the daemon) is taken as any
 * writer takes it, waiting for it; so is every lock when the tree is on a network filesystem or the
 * instance lock is not held. A writer outside that takes a lock directory waits for the daemon's
 * `fenced` mark in it (`waitForFence`), which the daemon writes once no change of that task that
 * missed the directory is in flight.
 */
export function createTreeLocks(place: TreeLockPlace): TaskLocker {
  const memory = createMemoryLocks();
  const inFlight = new Map<string, number>(); // lock path -> changes under the memory lock alone
  const fences = new Map<string, (() => void)[]>(); // lock path -> marks waiting for those to end
  let watching: { watcher: FSWatcher; ino: number } | null = null;
  let watchable: boolean | undefined; // unknown until the first change under the tree's lock
  const fence = (lockPath: string) => {
    if (!inFlight.get(lockPath)) return markFenced(lockPath);
    const waiting = fences.get(lockPath) ?? [];
    waiting.push(() => markFenced(lockPath));
    fences.set(lockPath, waiting);
  };
  const startWatching = (): boolean => {
    try {
      mkdirSync(place.locksDir, { recursive: true });
      const ino = lstatSync(place.locksDir).ino;
      // A lock directory made by another writer: fenced once this daemon's changes that missed it are done.
      const watcher = watch(place.locksDir, (_event, name) => {
        if (name && isTaskLock(String(name))) fence(join(place.locksDir, String(name)));
      });
      watcher.on('error', () => watcher.close());
      watcher.unref();
      watching = { watcher, ino };
      markMemoryLocks(place.daemonLock); // after the watch: a writer that sees the mark is always answered
      for (const name of readdirSync(place.locksDir)) if (isTaskLock(name)) markFenced(join(place.locksDir, name));
    } catch {
      return false; // no watch (no inotify watch left, say): every change takes a lock directory
    }
    // `tasks/.locks` removed and made again: watched anew, so no writer there waits in vain
    const check = setInterval(() => {
      if (lstatSync(place.locksDir, { throwIfNoEntry: false })?.ino === watching?.ino) return;
      watching?.watcher.close();
      clearInterval(check);
      watchable = startWatching();
    }, WATCH_CHECK_MS);
    check.unref();
    return true;
  };
  const memoryHeld: HeldLock = {
    assertHeld() {
      if (!place.held())
        throw new SvcError('locked', 'The daemon lost its instance lock while writing.', 'Retry the command.');
    },
  };
  return (lockPath, options, fn) => {
    const started = Date.now();
    return memory(lockPath, options, async () => {
      const held = place.held();
      if (held && watchable === undefined) watchable = !isNetworkDir(place.locksDir) && startWatching();
      if (!held || !watchable || lstatSync(lockPath, { throwIfNoEntry: false })) {
        const waitMs = options.waitMs === undefined ? undefined : Math.max(0, options.waitMs - (Date.now() - started));
        // Not holding the tree (lost to another daemon): wait for that one's changes as a writer outside does.
        const daemonLock = held ? undefined : place.daemonLock;
        return withLock(lockPath, { what: options.what, ...(waitMs === undefined ? {} : { waitMs }), daemonLock }, fn);
      }
      inFlight.set(lockPath, (inFlight.get(lockPath) ?? 0) + 1);
      try {
        return await fn(memoryHeld);
      } finally {
        const left = inFlight.get(lockPath)! - 1;
        if (left > 0) inFlight.set(lockPath, left);
        else {
          inFlight.delete(lockPath);
          for (const mark of fences.get(lockPath) ?? []) mark();
          fences.delete(lockPath);
        }
      }
    });
  };
}

// --- internal ---

/** How often the daemon checks that `tasks/.locks` is still the directory it watches. */
const WATCH_CHECK_MS = 1000;

/** A task's lock directory (not a duty's, `duty.<name>.lock`, which the daemon takes as any writer). */
function isTaskLock(name: string): boolean {
  return name.endsWith('.lock') && !name.startsWith('duty.');
}
