import { lstatSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { isGone, SvcError, toError } from '../../core/errors.js';
import { STATUSES, type Status } from '../../core/status.js';
import { isNetworkDir } from '../../fs/network-fs.js';
import type { Paths } from '../disk/paths.js';
import { readTaskFileSettled } from '../disk/settled-read.js';
import { readTaskFile, type StoredTask } from '../disk/task-file.js';

/** One copy of a task as read: the task, or why it does not parse. */
export interface ReadCopy {
  path: string;
  copy: StoredTask | Error;
}

/** Options of `readCopies`. */
export interface ReadCopiesOptions {
  /** Read a copy that fails to parse a second time (`readTaskFileSettled`); default true. */
  settle?: boolean;
  /**
   * Where the caller's index last saw the only copy of `id` (see `StoreOptions.whereIs`); undefined: look
   * everywhere.
   */
  hint?: Status | undefined;
}

/**
 * Reads every copy of `id` that opens (normally one); `not_found` when none does. A copy gone by
 * the time it is opened moved meanwhile, or was only a network filesystem's cached look: the
 * search is repeated a few times before the task counts as missing. A copy that fails to parse is
 * read a second time (`readTaskFileSettled`) unless `settle` is false. With a `hint`, on a local
 * disk, the file in the hinted directory is read first and, when it is there and parses, is the
 * answer without a look into the other six directories; a hint the disk contradicts (the file
 * moved by hand, or does not parse) costs one lookup, then the full search runs as without one.
 */
export async function readCopies(paths: Paths, id: string, options: ReadCopiesOptions = {}): Promise<ReadCopy[]> {
  const read = (path: string) => (options.settle === false ? readTaskFile(path) : readTaskFileSettled(path));
  if (options.hint !== undefined && !isNetworkDir(paths.tasks)) {
    const path = paths.taskFile(options.hint, id);
    lookups++;
    const copy = await read(path).catch((err: unknown) => toError(err));
    if (!(copy instanceof Error)) return [{ path, copy }];
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const found = await findTaskFiles(paths, id);
    if (found.length === 0) break;
    const copies = await Promise.all(
      found.map(async (path) => ({ path, copy: await read(path).catch((err: unknown) => toError(err)) })),
    );
    const present = copies.filter(({ copy }) => !isGone(copy));
    if (present.length) return present;
  }
  throw new SvcError('not_found', `Task ${id} does not exist.`, 'List tasks with `svc task list`.');
}

/**
 * The paths of every copy of `id` in the status directories (normally one). Synchronous on a local
 * disk on purpose: seven stats of one inode each cost microseconds, seven thread-pool round trips
 * do not. On a network filesystem each stat waits on the server: there they run in parallel, off
 * the event loop.
 */
export async function findTaskFiles(paths: Paths, id: string): Promise<string[]> {
  const candidates = STATUSES.map((status) => paths.taskFile(status, id));
  lookups += candidates.length;
  if (!isNetworkDir(paths.tasks))
    return candidates.filter((path) => lstatSync(path, { throwIfNoEntry: false }) !== undefined);
  const found = await Promise.all(
    candidates.map((path) =>
      lstat(path).then(
        () => path,
        (err: unknown) => (isGone(err) ? null : Promise.reject(err)),
      ),
    ),
  );
  return found.filter((path): path is string => path !== null);
}

/**
 * How many task paths `findTaskFiles` and a hinted `readCopies` looked at in this process (tests and the bench
 * read it).
 */
export function taskLookupCount(): number {
  return lookups;
}

// --- internal ---

let lookups = 0;
