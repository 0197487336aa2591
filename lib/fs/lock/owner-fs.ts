import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { hasCode } from '../../core/errors.js';
import { isNameTaken } from '../atomic.js';
import { forgetCached, isDirectReadDir, isNetworkDir } from '../network-fs.js';
import { isProcessAlive } from '../process.js';
import { mkdirLocal, rmdirLocal, syncCall } from './local.js';
import { LOCK_STALE_MS } from './owner.js';

/**
 * The fs that proper-lockfile uses, extended so a lock records its owner (`<host> <pid>`, as a
 * symlink `owner` inside the lock directory: one syscall to write, one to read) and a lock whose
 * owner died on this host reads as stale. Typed as an `object`: proper-lockfile takes any fs, and
 * the spread of `node:fs` has no name a declaration file could write.
 */
export const ownerFs: object = {
  ...fs,
  mkdir(path: string, callback: (err: NodeJS.ErrnoException | null) => void) {
    if (!isNetworkDir(dirname(path))) return mkdirLocal(path, { owner: self, held: ownLocks }, callback);
    fs.mkdir(path, (err) => {
      // A network filesystem may answer a lost race with another error than EEXIST (see isNameTaken).
      if (err)
        return void isNameTaken(err, path).then((taken) =>
          callback(taken ? Object.assign(err, { code: 'EEXIST' }) : err),
        );
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
    fs.unlink(join(path, 'owner'), () =>
      fs.rmdir(path, (err) =>
        err && err.code === 'ENOTEMPTY' ? fs.rm(path, { recursive: true, force: true }, callback) : callback(err),
      ),
    );
  },
  rmdirSync(path: string) {
    fs.rmSync(path, { recursive: true, force: true });
  },
  stat(path: string, callback: (err: NodeJS.ErrnoException | null, stat?: fs.Stats) => void) {
    if (ownLocks.has(path))
      return isNetworkDir(dirname(path)) ? fs.stat(path, callback) : syncCall(() => fs.statSync(path), callback);
    // On FUSE (sshfs) the look that decides whether a lock is held must be the server's: see forgetCached.
    if (isDirectReadDir(dirname(path)))
      return void forgetCached(path).then(() => statForeign(path, { confirm: false, network: true }, callback));
    statForeign(path, { confirm: isNetworkDir(dirname(path)), network: isNetworkDir(dirname(path)) }, callback);
  },
};

// --- internal ---

const self = `${hostname()} ${process.pid}`;
const ownLocks = new Set<string>(); // locks this process holds: their owner needs no check

/**
 * A lock on a local disk without its owner record, this long after it was made or refreshed, was
 * left by a writer killed between creating the lock directory and recording itself in it (a
 * live holder records itself within moments, and fails its lock if it cannot): it is stale at
 * once rather than after `LOCK_STALE_MS`.
 */
const OWNERLESS_MS = 3000;

/** Where a lock held by another process lies, for statForeign. */
interface ForeignLockPlace {
  /** The cache cannot be bypassed: a lock that looks stale or dead-owned is looked at again. */
  confirm: boolean;
  /** On a network filesystem: a missing owner record does not make the lock stale. */
  network: boolean;
}

/**
 * Stats a lock held by another process; an owner dead on this host (or, on a local disk, no owner
 * recorded past OWNERLESS_MS) makes it stale at once. On a
 * network filesystem whose cache cannot be bypassed (`confirm`), a lock that looks stale or
 * dead-owned is looked at again first (see confirmFresh), and a dead owner counts only on a lock
 * left unrefreshed past one refresh period (its owner record may be an earlier holder's, cached).
 */
function statForeign(
  path: string,
  where: ForeignLockPlace,
  callback: (err: NodeJS.ErrnoException | null, stat?: fs.Stats) => void,
): void {
  const { confirm, network } = where;
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
function confirmFresh(
  path: string,
  cached: fs.Stats,
  done: (err: NodeJS.ErrnoException | null, stat?: fs.Stats) => void,
): void {
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
