import { chmodSync, lstatSync, statSync } from 'node:fs';
import { chmod, lstat, readdir, rename, stat, unlink } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createConnection } from 'node:net';
import { hostname, platform } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeError, hasCode, SvcError } from '../../core/errors.js';
import { writeAtomic } from '../../fs/atomic.js';
import { withLock, type HeldLock } from '../../fs/lock/lock.js';
import { LOCK_STALE_MS, readLockOwner, readOwnerText } from '../../fs/lock/owner.js';
import { ROUTES } from '../../net/protocol/routes.js';
import type { Paths } from '../../store/disk/paths.js';
import { requestDaemon } from './client.js';
import { isAlive, readPid } from './pid.js';

/** Longest socket path the OS accepts (sun_path less the NUL); Node would truncate silently. */
export const SOCKET_PATH_MAX = platform() === 'darwin' ? 103 : 107;

/** Throws `validation_error` when the socket path is too long for the OS. */
export function assertSocketPath(socket: string): void {
  const length = Buffer.byteLength(socket);
  if (length <= SOCKET_PATH_MAX) return;
  throw new SvcError(
    'validation_error',
    `The daemon socket path ${socket} has ${length} bytes; Unix sockets allow at most ${SOCKET_PATH_MAX}.`,
    'Point SVC_HOME at a shorter directory, for example SVC_HOME=~/.svc.',
  );
}

/** The lock held for the life of a daemon: one daemon per svc home. */
export interface InstanceLock {
  /** Why this daemon is no longer the holder (the lock directory was removed or taken over), or null while it is. */
  lost(): string | null;
  release(): Promise<void>;
}

/**
 * Takes the single-instance lock (`paths.instanceLock`). A lock of a daemon that died on this
 * host (a zombie included) is taken over at once; a live one fails with `locked` naming its pid.
 */
export async function holdInstanceLock(paths: Paths): Promise<InstanceLock> {
  const lockPath = paths.instanceLock;
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  let held!: (lock: HeldLock) => void;
  const taken = new Promise<HeldLock>((done) => (held = done));
  const life = withLock(lockPath, { what: 'the svc daemon', waitMs: 0 }, async (lock) => {
    held(lock);
    await released;
  });
  let lock: HeldLock;
  try {
    lock = await Promise.race([taken, life.then(() => null as never)]);
  } catch (err) {
    if (hasCode(err, 'locked')) throw alreadyRunning(paths, err);
    throw err;
  }
  const self = `${hostname()} ${process.pid}`;
  return {
    lost() {
      try {
        lock.assertHeld();
      } catch (err) {
        return describeError(err);
      }
      const owner = readOwnerText(lockPath);
      if (owner === self) return null;
      return owner === null
        ? `the instance lock ${lockPath} is gone`
        : `the instance lock ${lockPath} now belongs to ${owner}`;
    },
    async release() {
      // A lock taken over (its directory removed, maybe re-created by another daemon) must not be
      // removed by this one: wait until proper-lockfile has seen it compromised (its next
      // refresh, within half the stale time), after which the release removes nothing.
      const deadline = Date.now() + LOCK_STALE_MS;
      while (readOwnerText(lockPath) !== self && isHeld(lock) && Date.now() < deadline) await sleep(100);
      release();
      await life.catch(() => undefined);
    },
  };
}

/**
 * Removes what a killed daemon left: a socket nothing answers on, its pid file and any socket it
 * was still binding. Called under the instance lock, so no other daemon of this root is running.
 */
export async function clearLeftovers(paths: Paths): Promise<string[]> {
  const removed: string[] = [];
  if (await exists(paths.socket)) {
    if (await answers(paths.socket)) {
      throw new SvcError(
        'locked',
        `Something already answers on ${paths.socket}.`,
        'Stop the other daemon with `svc daemon stop` first.',
      );
    }
    await unlink(paths.socket).catch(ignoreMissing);
    removed.push(paths.socket);
  }
  const pid = readPid(paths);
  if (pid !== null && pid !== process.pid) {
    await unlink(paths.pidFile).catch(ignoreMissing);
    removed.push(paths.pidFile);
  }
  for (const name of await readdir(paths.data).catch(() => [] as string[])) {
    if (!/^\.s\d+$/.test(name)) continue;
    await unlink(join(paths.data, name)).catch(ignoreMissing);
    removed.push(join(paths.data, name));
  }
  return removed;
}

/**
 * Listens on the socket with mode 0600 from its first instant: bound under umask 0177 (binding is
 * synchronous inside `listen`) at a name of its own (`data/.s<pid>`), chmod'ed and checked, then
 * renamed onto `data/daemon.sock`. Closing the server then never unlinks the public name, which
 * may by then belong to another daemon; `removeSocket` removes it only while it is this one's.
 * Returns the socket's inode.
 */
export async function listenPrivate(server: Server, socket: string): Promise<number> {
  const bound = join(socket, '..', `.s${process.pid}`);
  await unlink(bound).catch(ignoreMissing);
  const listening = new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const previous = process.umask(0o177);
  try {
    server.listen(bound);
  } finally {
    process.umask(previous);
  }
  await listening;
  await chmod(bound, 0o600);
  const info = await stat(bound);
  if ((info.mode & 0o777) !== 0o600)
    throw new SvcError('internal', `The socket ${bound} has mode ${(info.mode & 0o777).toString(8)}; expected 600.`);
  await rename(bound, socket);
  return info.ino;
}

/** Removes the socket file only if it is still the one this daemon bound (inode `ino`). */
export async function removeSocket(socket: string, ino: number): Promise<void> {
  const info = await lstat(socket).catch(() => null);
  if (info?.ino === ino) await unlink(socket).catch(ignoreMissing);
}

/** Why the socket file is no longer this daemon's (inode `ino`), or null while it is. */
export function socketLost(socket: string, ino: number): string | null {
  try {
    return lstatSync(socket).ino === ino ? null : `${socket} was replaced by another file`;
  } catch {
    return `${socket} is gone`;
  }
}

/** Writes `data/daemon.pid` (atomically). */
export async function writePidFile(paths: Paths, pid: number): Promise<void> {
  await writeAtomic(paths.pidFile, `${pid}\n`);
}

/** Removes the pid file only if it still names `pid`. */
export async function removePidFile(paths: Paths, pid: number): Promise<void> {
  if (readPid(paths) === pid) await unlink(paths.pidFile).catch(ignoreMissing);
}

/** Makes sure `data/` is private (0700): the socket's privacy rests on it too. */
export function assertPrivateDir(dir: string): void {
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

// --- internal ---

function alreadyRunning(paths: Paths, cause: unknown): SvcError {
  const owner = readLockOwner(paths.instanceLock)?.pid ?? readPid(paths);
  const who = owner !== null && isAlive(owner) ? `pid ${owner}` : 'another process';
  return new SvcError('locked', `An svc daemon is already running for ${paths.root} (${who}).`, {
    hint: 'Check it with `svc daemon status`; stop it with `svc daemon stop` before starting another.',
    cause,
  });
}

function isHeld(lock: HeldLock): boolean {
  try {
    lock.assertHeld();
    return true;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const conn = createConnection(socket);
    const done = (outcome: 'answered' | 'silent') => {
      conn.destroy();
      resolve(outcome === 'answered');
    };
    conn.once('connect', () => done('answered'));
    conn.once('error', () => done('silent'));
    conn.setTimeout(1000, () => done('silent'));
  });
}

function ignoreMissing(err: unknown): void {
  if (!hasCode(err, 'ENOENT')) throw err;
}

/**
 * Checks that the socket just bound answers `/healthz` with 200. The daemon answers itself, so only
 * a starved machine makes this slow: it gets 60 s rather than failing a start on a busy CI runner.
 */
export async function assertHealthy(paths: Paths): Promise<void> {
  const { status } = await requestDaemon(paths.socket, ROUTES.healthz, { timeoutMs: 60_000 });
  if (status !== 200)
    throw new SvcError(
      'internal',
      `The new daemon answered ${ROUTES.healthz.path} with HTTP ${status}.`,
      'See data/logs/daemon.log.',
    );
}
