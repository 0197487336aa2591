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
  let watching: FSWatcher | null = null;
  const fence = (lockPath: string) => {
    if (!inFlight.get(lockPath)) return markFenced(lockPath);
    const waiting = fences.get(lockPath) ?? [];
    waiting.push(() => markFenced(lockPath));
    fences.set(lockPath, waiting);
  };
  const startWatching = () => {
    mkdirSync(place.locksDir, { recursive: true });
    // A lock directory made by another writer: fenced once this daemon's changes that missed it are done.
    watching = watch(place.locksDir, (_event, name) => {
      if (name && isTaskLock(String(name))) fence(join(place.locksDir, String(name)));
    });
    watching.on('error', () => undefined);
    watching.unref();
    markMemoryLocks(place.daemonLock); // after the watch: a writer that sees the mark is always answered
    for (const name of readdirSync(place.locksDir)) if (isTaskLock(name)) markFenced(join(place.locksDir, name));
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
      const local = place.held() && !isNetworkDir(place.locksDir);
      if (local && !watching) startWatching();
      if (!local || lstatSync(lockPath, { throwIfNoEntry: false })) {
        const left = options.waitMs === undefined ? undefined : Math.max(0, options.waitMs - (Date.now() - started));
        return withLock(lockPath, { what: options.what, ...(left === undefined ? {} : { waitMs: left }) }, fn);
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

/** A task's lock directory (not a duty's, `duty.<name>.lock`, which the daemon takes as any writer). */
function isTaskLock(name: string): boolean {
  return name.endsWith('.lock') && !name.startsWith('duty.');
}
