import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { hasCode, SvcError } from '../../core/errors.js';
import { LOCK_STALE_MS } from './owner.js';
import { isNetworkDir } from '../network-fs.js';
import { waitForFence } from './fence.js';
import { ownerFs } from './owner-fs.js';

export { LOCK_STALE_MS };

/** Options of `withLock`. */
export interface LockOptions {
  /** What the lock guards, for the error message (a task id, "id counter"). */
  what: string;
  /** How long to keep retrying a held lock before failing with `locked`; default about 2 s. */
  waitMs?: number;
  /**
   * A task's lock: once it is taken, the changes in flight of the daemon that changes the tree under
   * memory locks, if one does, are waited for (`waitForFence`). Set for task locks only.
   */
  fence?: boolean;
}

/** A held lock: `assertHeld()` throws when another process took it over meanwhile. */
export interface HeldLock {
  assertHeld(): void;
}

/**
 * Runs `fn` while holding the lock directory `lockPath` (proper-lockfile). Locks of processes that
 * died on this host are taken over at once; others only once stale. Contention past `waitMs`
 * is a `locked` error.
 */
export async function withLock<T>(
  lockPath: string,
  options: LockOptions,
  fn: (lock: HeldLock) => Promise<T>,
): Promise<T> {
  let compromised: Error | undefined;
  const started = Date.now();
  const release = await acquire(lockPath, options, (err) => {
    compromised = err;
  });
  const held: HeldLock = {
    assertHeld() {
      if (compromised)
        throw new SvcError(
          'locked',
          `The lock on ${options.what} was lost while writing: ${compromised.message}.`,
          'Retry the command.',
        );
    },
  };
  try {
    if (options.fence) {
      const deadline = started + Math.max(options.waitMs ?? 2000, FENCE_WAIT_MIN_MS);
      await waitForFence(lockPath, { deadline, what: options.what });
    }
    return await fn(held);
  } finally {
    await release().catch(() => undefined);
  }
}

// --- internal ---

/** What a writer waits at least for the daemon's fenced mark: the daemon writes it within moments. */
const FENCE_WAIT_MIN_MS = 2000;

const knownDirs = new Set<string>();

async function acquire(
  lockPath: string,
  options: LockOptions,
  onCompromised: (err: Error) => void,
): Promise<() => Promise<void>> {
  const dir = dirname(lockPath);
  if (!knownDirs.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    knownDirs.add(dir);
  }
  const waitMs = toWaitMs(options.waitMs ?? 2000, dir);
  const retries =
    waitMs <= 0
      ? 0
      : {
          retries: Math.max(1, Math.ceil(waitMs / 60)),
          factor: 1.2,
          minTimeout: 5,
          maxTimeout: 100,
          maxRetryTime: waitMs,
          randomize: true,
        };
  try {
    return await lockfile.lock(lockPath.replace(/\.lock$/, ''), {
      lockfilePath: lockPath,
      realpath: false,
      stale: LOCK_STALE_MS,
      retries,
      fs: ownerFs,
      onCompromised,
    });
  } catch (err) {
    if (hasCode(err, 'ELOCKED')) {
      throw new SvcError('locked', `${options.what} is locked by another writer${describeHolder(lockPath)}.`, {
        hint: 'Another svc process is changing it right now; retry in a moment.',
        cause: err,
      });
    }
    if (hasCode(err, 'ENOENT')) knownDirs.delete(dir);
    throw err;
  }
}

/**
 * How long a writer waits for a held lock. On a network filesystem a lock whose holder died on
 * another host is taken over only once stale (`LOCK_STALE_MS` without a refresh): a shorter wait
 * would fail every change of that task with `locked` until then (an agent's completion among them,
 * after which its task would run again), so the wait there outlasts the staleness with a margin
 * for the fresh look that confirms it. A live holder still fails the writer after that long.
 */
function toWaitMs(waitMs: number, dir: string): number {
  return waitMs > 0 && isNetworkDir(dir) ? Math.max(waitMs, LOCK_STALE_MS + NETWORK_WAIT_MARGIN_MS) : waitMs;
}

/**
 * What a network writer waits past `LOCK_STALE_MS`: the look that confirms a stale lock (a chmod and a stat, each a
 * round trip) and the retry's backoff.
 */
const NETWORK_WAIT_MARGIN_MS = 3000;

/**
 * Who holds a lock and how long until it counts as stale, for the `locked` message: `: pid 42 on
 * this host (running), refreshed 1.2 s ago; it counts as stale in 8.8 s (10 s without a refresh)`.
 */
function describeHolder(lockPath: string): string {
  let refreshedMs: number;
  try {
    refreshedMs = fs.statSync(lockPath).mtimeMs;
  } catch {
    return ''; // released meanwhile
  }
  let owner: string | null = null;
  try {
    owner = fs.readlinkSync(join(lockPath, 'owner'));
  } catch {
    // a lock being created, or one written by a version without owners
  }
  const [host, pid] = owner ? owner.trim().split(' ') : [];
  const who =
    !host || !pid
      ? 'another process'
      : host === hostname()
        ? `pid ${pid} on this host (running)`
        : `pid ${pid} on host ${host}`;
  const age = Math.max(0, Date.now() - refreshedMs);
  const left = LOCK_STALE_MS - age;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const stale =
    left > 0 ? `it counts as stale in ${seconds(left)}` : 'it is stale now and is taken over on the next try';
  return `: ${who}, refreshed ${seconds(age)} ago; ${stale} (${LOCK_STALE_MS / 1000} s without a refresh)`;
}
