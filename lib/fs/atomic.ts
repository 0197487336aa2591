import { closeSync, linkSync, openSync } from 'node:fs';
import { link, lstat, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { describeError, hasCode, SvcError } from '../core/errors.js';
import { fsyncDir } from './fsync-dir.js';
import { unlinkQuietly, writeTempDurable } from './local-write.js';
import { isNetworkDir } from './network-fs.js';
import { toWriteError } from './write-error.js';

export { fsyncDir };

/**
 * Writes a file durably: temporary file, fsync, rename (write-file-atomic), then fsync of the
 * directory so the rename itself survives a crash. A failed write leaves no temporary file
 * (write-file-atomic removes it); a full disk is `no_space` naming `path`.
 */
export async function writeDurable(path: string, content: string, mode?: number): Promise<void> {
  try {
    await writeFileAtomic(path, content, { fsync: true, ...(mode === undefined ? {} : { mode }) });
  } catch (err) {
    throw toWriteError(err, path);
  }
  await fsyncDir(dirname(path));
}

/** Replaces a file atomically without fsync: for hints (counters) whose loss is harmless. */
export async function writeAtomic(path: string, content: string): Promise<void> {
  await writeFileAtomic(path, content, { fsync: false });
}

/**
 * Creates `path` only if nothing is there: the content is written durably under a temporary name,
 * then hard-linked into place (link fails when the name exists). Returns false when it existed
 * (see `isNameTaken`). A network filesystem may answer a link with an error and still have made it,
 * or lose the temporary under load (ENOENT): a name found holding exactly this content after such
 * an error is ours, and a lost temporary is written again (three tries). A temporary that cannot
 * be written (a full disk: `no_space` naming `path`) is removed. `linkFn` stands in for `link` in tests.
 */
export async function createExclusive(
  path: string,
  content: string,
  linkFn: (from: string, to: string) => Promise<void> = link,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.new`;
    // On a local disk only the fsyncs leave the event loop (see writeNewFileSynced).
    const local = !isNetworkDir(dirname(path));
    await writeTempDurable(temp, content, { target: path, local });
    try {
      if (local && linkFn === link) linkSync(temp, path);
      else await linkFn(temp, path);
      return true;
    } catch (err) {
      if (await isNameTaken(err, path)) return !hasCode(err, 'EEXIST') && (await holds(path, content));
      if (!hasCode(err, 'ENOENT') || attempt === 3) throw err;
    } finally {
      if (local) unlinkQuietly(temp);
      else await unlink(temp).catch(() => undefined);
      await fsyncDir(dirname(path));
    }
  }
}

/**
 * Creates the empty file `path` exclusively (`open wx`); false when the name is taken (see
 * `isNameTaken`). A missing parent directory throws ENOENT. `openFn` stands in for `open` in tests.
 */
export async function createEmptyExclusive(
  path: string,
  openFn: (path: string, flags: string) => Promise<{ close(): Promise<void> }> = open,
): Promise<boolean> {
  try {
    if (openFn === open && !isNetworkDir(dirname(path))) closeSync(openSync(path, 'wx'));
    else await (await openFn(path, 'wx')).close();
    return true;
  } catch (err) {
    if (await isNameTaken(err, path)) return false;
    throw toWriteError(err, path);
  }
}

/**
 * True when an exclusive create failed because the name is taken. EEXIST says so; a network
 * filesystem may answer otherwise (sshfs answers EPERM for a name another host created that this
 * host does not know yet), so any other error (but ENOENT, a missing directory) counts as taken
 * when a fresh look finds the name.
 */
export async function isNameTaken(err: unknown, path: string): Promise<boolean> {
  if (hasCode(err, 'EEXIST')) return true;
  if (hasCode(err, 'ENOENT') || typeof (err as { code?: unknown } | null)?.code !== 'string') return false;
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** True when `path` is a file holding exactly `content`. */
async function holds(path: string, content: string): Promise<boolean> {
  return readFile(path, 'utf8').then(
    (text) => text === content,
    () => false,
  );
}

/** Removes a file and makes the removal durable; false when it was already gone. */
export async function unlinkDurable(path: string): Promise<boolean> {
  try {
    await unlink(path);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return false;
    throw err;
  }
  await fsyncDir(dirname(path));
  return true;
}

/** Creates directories (and parents) with an optional mode. */
export async function ensureDir(dir: string, mode?: number): Promise<void> {
  await mkdir(dir, { recursive: true, ...(mode === undefined ? {} : { mode }) });
}

/** Translates EACCES/ENOSPC and friends at the fs edge, keeping the cause. */
export function toFsError(err: unknown, what: string): SvcError {
  if (err instanceof SvcError) return err;
  const code = (err as { code?: string } | null)?.code ?? 'EUNKNOWN';
  const message = describeError(err);
  return new SvcError('internal', `${what} failed (${code}): ${message}`, {
    hint: code === 'EACCES' ? 'Check the permissions of the svc home directory.' : undefined,
    cause: err,
  });
}
