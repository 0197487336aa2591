import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, stat } from 'node:fs/promises';
import { SvcError } from '../core/errors.js';
import { describeEntry } from './regular-file.js';

/**
 * Reads a file that must be a regular file, bounded: unlike task files, a symlink is followed
 * (a config kept in a dotfiles repository), but what it ends at must be a regular file too. A
 * FIFO, device, socket or directory (itself or as a link's target) is a `validation_error` saying
 * what it is, found before any read could block or flood; the file is opened without blocking and
 * checked again on the descriptor; more than `maxBytes` is `too_large`. A missing file throws ENOENT.
 */
export async function readFollowedFile(path: string, maxBytes: number, what: string): Promise<string> {
  const target = await stat(path);
  if (!target.isFile()) throw notRegular(path, await describe(path, target), what);
  const file = { path, maxBytes, what };
  assertSize(target.size, file);
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw notRegular(path, await describe(path, opened), what);
    assertSize(opened.size, file);
    const buffer = Buffer.allocUnsafe(maxBytes + 1);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, total, maxBytes + 1 - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      assertSize(total, file);
    }
    return buffer.toString('utf8', 0, total);
  } finally {
    await handle.close();
  }
}

// --- internal ---

async function describe(path: string, target: Stats): Promise<string> {
  const own = await lstat(path).catch(() => null);
  if (!own?.isSymbolicLink()) return describeEntry(target);
  const to = await readlink(path).catch(() => '?');
  return `a symbolic link to ${to} (${describeEntry(target)})`;
}

function notRegular(path: string, found: string, what: string): SvcError {
  return new SvcError(
    'validation_error',
    `${path}: ${found}, not a regular file; ${what} must be a regular file.`,
    'Point at the file itself; nothing was read or written.',
  );
}

/** `file`: the file read, its limit, and what it is named in the error. */
function assertSize(size: number, file: { path: string; maxBytes: number; what: string }): void {
  const { path, maxBytes, what } = file;
  if (size <= maxBytes) return;
  throw new SvcError(
    'too_large',
    `${path}: ${what} has ${size > maxBytes + 1 ? size : `more than ${maxBytes}`} bytes; the limit is ${maxBytes}.`,
    'Point at the right file; nothing was written.',
  );
}
