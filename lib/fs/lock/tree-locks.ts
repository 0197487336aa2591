import { type FSWatcher, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, watch } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '../../core/errors.js';
import { isNetworkDir } from '../network-fs.js';
import { MEMORY_LOCKS_MARK, markFenced, readlinkOrNull, readMark, refreshMemoryLocks } from './fence.js';
import { type HeldLock, type LockOptions, withLock } from './lock.js';
import { createMemoryLocks } from './memory.js';

/** Runs `fn` holding the lock of one task (its lock directory's path names it). */
export type TaskLocker = <T>(lockPath: string, options: LockOptions, fn: (lock: HeldLock) => Promise<T>) => Promise<T>;

/** Where a daemon's task locks live, and whether it holds the tree now. */
export interface TreeLockPlace {
  /** `tasks/.locks`. */
  locksDir: string;
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
  /** Whether this daemon changes the tree under memory locks: decided at its first change while it holds the tree. */
  let mode: Promise<boolean> | undefined;
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
    } catch {
      return false; // no watch (no inotify watch left, say): every change takes a lock directory
    }
    // `tasks/.locks` removed and made again: watched anew, so no writer there waits in vain
    const check = setInterval(() => {
      // The mark taken over (this process stalled past its staleness): lock directories from now on.
      if (!refreshMemoryLocks(place.locksDir)) return void stopWatching(check);
      if (lstatSync(place.locksDir, { throwIfNoEntry: false })?.ino === watching?.ino) return;
      stopWatching(check);
      mode = claimTree();
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
  const stopWatching = (check: NodeJS.Timeout) => {
    clearInterval(check);
    watching?.watcher.close();
    watching = null;
    mode = Promise.resolve(false);
  };
  /** Watches `tasks/.locks`, then claims the mark (a writer that sees it is always answered); false: not ours. */
  const claimTree = async (): Promise<boolean> => {
    if (isNetworkDir(place.locksDir) || !startWatching()) return false;
    if (!(await claimMemoryLocks(place.locksDir).catch(() => false))) {
      watching?.watcher.close();
      watching = null;
      return false;
    }
    for (const name of readdirSync(place.locksDir)) if (isTaskLock(name)) markFenced(join(place.locksDir, name));
    return true;
  };
  return (lockPath, options, fn) => {
    const started = Date.now();
    return memory(lockPath, options, async () => {
      const held = place.held();
      if (held) mode ??= claimTree();
      if (!held || !(await mode) || lstatSync(lockPath, { throwIfNoEntry: false })) {
        const waitMs = options.waitMs === undefined ? undefined : Math.max(0, options.waitMs - (Date.now() - started));
        // Not the tree's memory-lock daemon (another daemon is): wait for that one's changes as a writer outside does.
        return withLock(lockPath, { what: options.what, ...(waitMs === undefined ? {} : { waitMs }), fence: true }, fn);
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
  return name.endsWith('.lock') && !name.startsWith('duty.') && name !== `${MEMORY_LOCKS_MARK}.lock`;
}

/**
 * Claims the tree's memory locks for this process (`MEMORY_LOCKS_MARK` in `locksDir`): true when the mark
 * is now this process's, false when another live daemon holds it. A mark that no longer counts (its
 * process gone, or not refreshed for `LOCK_STALE_MS`) is replaced under a lock of its own, so of two
 * daemons replacing it at once one gets it.
 */
async function claimMemoryLocks(locksDir: string): Promise<boolean> {
  const markPath = join(locksDir, MEMORY_LOCKS_MARK);
  const mine = `${hostname()} ${process.pid}`;
  return withLock(`${markPath}.lock`, { what: 'the memory locks mark', waitMs: 5000 }, async () => {
    const text = readlinkOrNull(markPath);
    if (text === mine) return true;
    if (text !== null && readMark(markPath) !== null) return false;
    rmSync(markPath, { force: true });
    symlinkSync(mine, markPath);
    return true;
  });
}
