import { closeSync, constants, openSync, unlinkSync, writeSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { fsyncFd } from './fsync-dir.js';
import { toWriteError } from './write-error.js';

/**
 * Writes `content` into a new file `path` (`how.flags` say how it is opened, O_EXCL among them; `how.mode`, default
 * 0o666) and
 * fsyncs it, on a local disk: open, write and close are synchronous (each costs microseconds
 * there, less than a thread-pool round trip), only the fsync waits in the thread pool, so that
 * other changes go on meanwhile and share the directory fsync that follows (see fsyncDir). A write
 * that fails removes the file and rethrows. Not for a network filesystem, where each of these
 * calls waits on the server: there the asynchronous calls are used.
 */
export async function writeNewFileSynced(
  path: string,
  content: string,
  how: { flags: number; mode?: number },
): Promise<void> {
  const fd = openSync(path, how.flags, how.mode ?? 0o666);
  try {
    try {
      const bytes = Buffer.from(content, 'utf8');
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
      await fsyncFd(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    unlinkQuietly(path);
    throw err;
  }
}

/**
 * Writes `content` into the new temporary file `temp` and fsyncs it, before a rename or a link puts
 * it at `target`: on a local disk with `writeNewFileSynced`, otherwise (`local` false: on a network
 * filesystem, where each call waits on the server, or for one of many temporaries written at once)
 * with asynchronous calls. Opened exclusively, never through a
 * symlink, with `mode` (default 0o666). A failure removes `temp` and is the write error of `target`
 * (a full disk: `no_space` naming it). The one temporary-file writer of `createExclusive`,
 * `replaceFileDurable` and the store's batches.
 */
export async function writeTempDurable(
  temp: string,
  content: string,
  options: { target: string; local: boolean; mode?: number },
): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  try {
    if (options.local) return await writeNewFileSynced(temp, content, { flags, mode: options.mode });
    const handle = await open(temp, flags, options.mode ?? 0o666);
    try {
      try {
        await handle.writeFile(content);
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
  } catch (err) {
    throw toWriteError(err, options.target);
  }
}

/** Removes `path`, ignoring any failure (a temporary file already gone). */
export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already, or the failure that matters was reported by the caller
  }
}
