import { lstatSync, renameSync, type BigIntStats } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hasCode } from '../core/errors.js';
import { fsyncDir } from './fsync-dir.js';
import { unlinkQuietly, writeTempDurable } from './local-write.js';
import { isNetworkDir } from './network-fs.js';
import { toWriteError } from './write-error.js';

/**
 * Replaces `path` durably (temporary file beside it, fsync, rename, directory fsync) without ever
 * following a symlink: the rename replaces the directory entry itself, so a link planted at
 * `path` is replaced, never written through. The mode of a regular file already there is kept.
 * A failed write removes its temporary file; a full disk is `no_space` naming `path`.
 */
export async function replaceFileDurable(path: string, content: string): Promise<void> {
  const existing = lstatOrNull(path);
  const mode = existing?.isFile() ? Number(existing.mode) & 0o7777 : 0o666;
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  const local = !isNetworkDir(dirname(path));
  await writeTempDurable(temp, content, { target: path, local, mode });
  try {
    if (local) renameSync(temp, path);
    else await rename(temp, path);
  } catch (err) {
    if (local) unlinkQuietly(temp);
    else await unlink(temp).catch(() => undefined);
    throw toWriteError(err, path);
  }
  await fsyncDir(dirname(path));
}

// --- internal ---

function lstatOrNull(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true });
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    throw err;
  }
}
