import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { hasCode, SvcError } from '../../core/errors.js';
import { isNameTaken } from '../atomic.js';
import { LOCK_STALE_MS } from './owner.js';
import { forgetCached, isDirectReadDir, isNetworkDir } from '../network-fs.js';
import { mkdirLocal, rmdirLocal, syncCall } from './local.js';
import { isProcessAlive } from '../process.js';

export { LOCK_STALE_MS };

/** Options of `withLock`. */
export interface LockOptions {
  /** What the lock guards, for the error message (a task id, "id counter"). */
  what: string;
  /** How long to keep retrying a held lock before failing with `locked`; default about 2 s. */
  waitMs?: number;
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
export async function withLock<T>(lockPath: string, options: LockOptions, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  let compromised: Error | undefined;
  const release = await acquire(lockPath, options, (err) => {
    compromised = err;
  });
  const held: HeldLock = {
    assertHeld() {
      if (compromised) throw new SvcError('locked', `The lock on ${options.what} was lost while writing: ${compromised.message}.`, 'Retry the command.');
    },
  };
  try {
    return await fn(held);
  } finally {
    await release().catch(() => undefined);
  }
}

// --- internal ---

const knownDirs = new Set<string>();
const self = `${hostname()} ${process.pid}`;

async function acquire(lockPath: string, options: LockOptions, onCompromised: (err: Error) => void): Promise<() => Promise<void>> {
  const dir = dirname(lockPath);
  if (!knownDirs.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    knownDirs.add(dir);
  }
  const waitMs = toWaitMs(options.waitMs ?? 2000, dir);
  const retries = waitMs <= 0 ? 0 : { retries: Math.max(1, Math.ceil(waitMs / 60)), factor: 1.2, minTimeout: 5, maxTimeout: 100, maxRetryTime: waitMs, randomize: true };
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
      throw new SvcError('locked', `${options.what} is locked by another writer${describeHolder(lockPath)}.`, 'Another svc process is changing it right now; retry in a moment.', { cause: err });
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

/** What a network writer waits past `LOCK_STALE_MS`: the look that confirms a stale lock (a chmod and a stat, each a round trip) and the retry's backoff. */
const NETWORK_WAIT_MARGIN_MS = 3000;

/**
 * The fs that proper-lockfile uses, extended so a lock records its owner (`<host> <pid>`, as a
 * symlink `owner` inside the lock directory: one syscall to write, one to read) and a lock whose
 * owner died on this host reads as stale.
 */
const ownLocks = new Set<string>(); // locks this process holds: their owner needs no check

const ownerFs = {
  ...fs,
  mkdir(path: string, callback: (err: NodeJS.ErrnoException | null) => void) {
    if (!isNetworkDir(dirname(path))) return mkdirLocal(path, self, ownLocks, callback);
    fs.mkdir(path, (err) => {
      // A network filesystem may answer a lost race with another error than EEXIST (see isNameTaken).
      if (err) return void isNameTaken(err, path).then((taken) => callback(taken ? Object.assign(err, { code: 'EEXIST' }) : err));
      ownLocks.add(path);
      fs.symlink(self, join(path, 'owner'), (linkErr) => {
        if (!linkErr || isNetworkDir(dirname(path))) return callback(null);
        // On a local disk a lock always names its owner (an ownerless one is a dead writer's: see statForeign).
        ownLocks.delete(path);
        fs.rm(path, { recursive: true, force: true }, () => callback(linkErr));
      });
    });
  },
  rmdir(path: string, callback: (err: NodeJS.ErrnoException | null) => void) {
    ownLocks.delete(path);
    if (!isNetworkDir(dirname(path))) return rmdirLocal(path, callback);
    fs.unlink(join(path, 'owner'), () => fs.rmdir(path, (err) => (err && err.code === 'ENOTEMPTY' ? fs.rm(path, { recursive: true, force: true }, callback) : callback(err))));
  },
  rmdirSync(path: string) {
    fs.rmSync(path, { recursive: true, force: true });
  },
  stat(path: string, callback: (err: NodeJS.ErrnoException | null, stat?: fs.Stats) => void) {
    if (ownLocks.has(path)) return isNetworkDir(dirname(path)) ? fs.stat(path, callback) : syncCall(() => fs.statSync(path), callback);
    // On FUSE (sshfs) the look that decides whether a lock is held must be the server's: see forgetCached.
    if (isDirectReadDir(dirname(path))) return void forgetCached(path).then(() => statForeign(path, false, callback, true));
    statForeign(path, isNetworkDir(dirname(path)), callback, isNetworkDir(dirname(path)));
  },
};

/**
 * A lock on a local disk without its owner record, this long after it was made or refreshed, was
 * left by a writer killed between creating the lock directory and recording itself in it (a
 * live holder records itself within moments, and fails its lock if it cannot): it is stale at
 * once rather than after `LOCK_STALE_MS`.
 */
const OWNERLESS_MS = 3000;

/**
 * Stats a lock held by another process; an owner dead on this host (or, on a local disk, no owner
 * recorded past OWNERLESS_MS) makes it stale at once. On a
 * network filesystem whose cache cannot be bypassed (`confirm`), a lock that looks stale or
 * dead-owned is looked at again first (see confirmFresh), and a dead owner counts only on a lock
 * left unrefreshed past one refresh period (its owner record may be an earlier holder's, cached).
 */
function statForeign(path: string, confirm: boolean, callback: (err: NodeJS.ErrnoException | null, stat?: fs.Stats) => void, network: boolean): void {
  fs.stat(path, (err, stat) => {
    if (err) return callback(err);
    fs.readlink(join(path, 'owner'), (readErr, owner) => {
      const ownerless = !network && hasCode(readErr, 'ENOENT') && Date.now() - stat.mtimeMs > OWNERLESS_MS;
      const dead = ownerless || (!readErr && isDeadOwner(owner));
      if (!confirm || (!dead && !isStale(stat))) {
        if (dead) stat.mtime = new Date(0);
        return callback(null, stat);
      }
      confirmFresh(path, stat, (freshErr, fresh) => {
        if (freshErr || !fresh) return callback(freshErr);
        if (dead && Date.now() - fresh.mtimeMs > REFRESH_MS + 2000) fresh.mtime = new Date(0);
        callback(null, fresh);
      });
    });
  });
}

/** proper-lockfile refreshes a held lock's mtime every half stale period. */
const REFRESH_MS = LOCK_STALE_MS / 2;

function isStale(stat: fs.Stats): boolean {
  return stat.mtimeMs < Date.now() - LOCK_STALE_MS;
}

/**
 * Looks at a lock again, past a network filesystem's attribute cache, before it is judged stale:
 * a chmod to its own mode changes nothing but makes sshfs drop the attributes it cached (and NFS
 * take the server's), so the stat that follows is the server's. When that cannot be done, the
 * cached look is kept.
 */
function confirmFresh(path: string, cached: fs.Stats, done: (err: NodeJS.ErrnoException | null, stat?: fs.Stats) => void): void {
  fs.chmod(path, cached.mode & 0o7777, (chmodErr) => {
    if (chmodErr) return hasCode(chmodErr, 'ENOENT') ? done(chmodErr) : done(null, cached); // gone: released meanwhile
    fs.stat(path, (err, fresh) => (err ? done(hasCode(err, 'ENOENT') ? err : null, cached) : done(null, fresh)));
  });
}

function isDeadOwner(owner: string): boolean {
  const [host, pidText] = owner.trim().split(' ');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  return !isProcessAlive(pid); // a zombie (exited, not reaped) is dead too
}

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
  const who = !host || !pid ? 'another process' : host === hostname() ? `pid ${pid} on this host (running)` : `pid ${pid} on host ${host}`;
  const age = Math.max(0, Date.now() - refreshedMs);
  const left = LOCK_STALE_MS - age;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const stale = left > 0 ? `it counts as stale in ${seconds(left)}` : 'it is stale now and is taken over on the next try';
  return `: ${who}, refreshed ${seconds(age)} ago; ${stale} (${LOCK_STALE_MS / 1000} s without a refresh)`;
}
