import { chmodSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { chmod, stat, unlink } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createConnection } from 'node:net';
import { platform } from 'node:os';
import { join } from 'node:path';
import { hasCode, SvcError } from '../core/errors.js';
import { writeAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import type { Paths } from '../store/paths.js';
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
  release(): Promise<void>;
}

/**
 * Takes the single-instance lock (beside the pid file). A lock of a daemon that died on this host
 * is taken over at once; a live one fails with `locked` naming its pid.
 */
export async function holdInstanceLock(paths: Paths): Promise<InstanceLock> {
  const lockPath = `${paths.pidFile}.lock`;
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  let held!: () => void;
  const taken = new Promise<void>((done) => (held = done));
  const life = withLock(lockPath, { what: 'the svc daemon', waitMs: 0 }, async () => {
    held();
    await released;
  });
  try {
    await Promise.race([taken, life]);
  } catch (err) {
    if (hasCode(err, 'locked')) throw alreadyRunning(paths, lockPath, err);
    throw err;
  }
  return {
    async release() {
      release();
      await life.catch(() => undefined);
    },
  };
}

/** Removes a socket nothing answers on and a pid file of a dead process (a killed daemon's leftovers). */
export async function clearLeftovers(paths: Paths): Promise<string[]> {
  const removed: string[] = [];
  if (await exists(paths.socket)) {
    if (await answers(paths.socket)) {
      throw new SvcError('locked', `Something already answers on ${paths.socket}.`, 'Stop the other daemon with `svc daemon stop` first.');
    }
    await unlink(paths.socket).catch(ignoreMissing);
    removed.push(paths.socket);
  }
  const pid = readPid(paths);
  if (pid !== null && !isAlive(pid)) {
    await unlink(paths.pidFile).catch(ignoreMissing);
    removed.push(paths.pidFile);
  }
  return removed;
}

/**
 * Listens on the socket with mode 0600 from its first instant: bound under umask 0177 (binding is
 * synchronous inside `listen`), then chmod'ed and checked.
 */
export async function listenPrivate(server: Server, socket: string): Promise<void> {
  const listening = new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const previous = process.umask(0o177);
  try {
    server.listen(socket);
  } finally {
    process.umask(previous);
  }
  await listening;
  await chmod(socket, 0o600);
  const mode = (await stat(socket)).mode & 0o777;
  if (mode !== 0o600) throw new SvcError('internal', `The socket ${socket} has mode ${mode.toString(8)}; expected 600.`);
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

function alreadyRunning(paths: Paths, lockPath: string, cause: unknown): SvcError {
  const pid = readPid(paths) ?? readLockOwner(lockPath);
  const who = pid !== null && isAlive(pid) ? `pid ${pid}` : 'another process';
  return new SvcError(
    'locked',
    `An svc daemon is already running for ${paths.root} (${who}).`,
    'Check it with `svc daemon status`; stop it with `svc daemon stop` before starting another.',
    { cause },
  );
}

/** The pid recorded as the lock's owner (`<host> <pid>`, a symlink or a file), when it can be read. */
function readLockOwner(lockPath: string): number | null {
  const owner = join(lockPath, 'owner');
  let text: string;
  try {
    text = readlinkSync(owner);
  } catch {
    try {
      text = readFileSync(owner, 'utf8');
    } catch {
      return null;
    }
  }
  const pid = Number(text.trim().split(' ')[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const conn = createConnection(socket);
    const done = (ok: boolean) => {
      conn.destroy();
      resolve(ok);
    };
    conn.once('connect', () => done(true));
    conn.once('error', () => done(false));
    conn.setTimeout(1000, () => done(false));
  });
}

function ignoreMissing(err: unknown): void {
  if (!hasCode(err, 'ENOENT')) throw err;
}

/** Checks that the socket just bound answers `/healthz` with 200. */
export async function assertHealthy(paths: Paths): Promise<void> {
  const { status } = await requestDaemon(paths.socket, 'GET', '/healthz', undefined, { timeoutMs: 5000 });
  if (status !== 200) throw new SvcError('internal', `The new daemon answered /healthz with HTTP ${status}.`, 'See data/logs/daemon.log.');
}
