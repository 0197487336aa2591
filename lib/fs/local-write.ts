import { closeSync, constants, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncDir, fsyncFd } from './fsync-dir.js';
import { toWriteError } from './write-error.js';

/**
 * Writes `content` into a new file `path` (`flags` say how it is opened; O_EXCL among them) and
 * fsyncs it, on a local disk: open, write and close are synchronous (each costs microseconds
 * there, less than a thread-pool round trip), only the fsync waits in the thread pool, so that
 * other changes go on meanwhile and share the directory fsync that follows (see fsyncDir). A write
 * that fails removes the file and rethrows. Not for a network filesystem, where each of these
 * calls waits on the server: there the asynchronous calls are used.
 */
export async function writeNewFileSynced(path: string, content: string, flags: number, mode = 0o666): Promise<void> {
  const fd = openSync(path, flags, mode);
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
 * `replaceFileDurable` on a local disk: `temp` written and fsynced, renamed onto `path`, the
 * directory fsynced (shared with the changes made meanwhile). A failure removes `temp`; a full
 * disk is `no_space` naming `path`.
 */
export async function replaceLocal(path: string, temp: string, content: string, mode: number): Promise<void> {
  try {
    await writeNewFileSynced(temp, content, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  } catch (err) {
    throw toWriteError(err, path);
  }
  try {
    renameSync(temp, path);
  } catch (err) {
    unlinkQuietly(temp);
    throw toWriteError(err, path);
  }
  await fsyncDir(dirname(path));
}

/** Removes `path`, ignoring any failure (a temporary file already gone). */
export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already, or the failure that matters was reported by the caller
  }
}
