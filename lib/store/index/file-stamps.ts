import { lstatSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { isGone } from '../../core/errors.js';
import { forEachLimit } from '../../core/limit.js';
import { isNetworkDir } from '../../fs/network-fs.js';
import { inSlices } from './slices.js';
import { toStamp } from './entry.js';

// The stamps the task index compares to tell one version of a task file from another.

/**
 * Identity of a file version (inode, size, mtime) of the entry itself (a symlink is not followed); null when it is
 * gone.
 */
export function stampOf(path: string): string | null {
  const s = lstatSync(path, { throwIfNoEntry: false });
  return s ? toStamp(s) : null;
}

/**
 * The stamps of many paths: synchronously in slices on a local disk (microseconds each), through
 * the thread pool, a few at a time, on a network filesystem (where each stat waits on the server
 * and a synchronous one would stall the daemon meanwhile).
 */
export async function stampsOf(tasks: string, paths: readonly string[]): Promise<(string | null)[]> {
  const out: (string | null)[] = new Array(paths.length).fill(null);
  if (!isNetworkDir(tasks)) {
    await inSlices(
      paths.map((path, i) => [path, i] as const),
      ([path, i]) => void (out[i] = stampOf(path)),
    );
    return out;
  }
  await forEachLimit(
    paths.map((path, i) => [path, i] as const),
    16,
    async ([path, i]) => {
      const s = await lstat(path).catch((err: unknown) => (isGone(err) ? null : Promise.reject(err)));
      out[i] = s ? toStamp(s) : null;
    },
  );
  return out;
}
