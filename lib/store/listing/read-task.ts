import { isGone, isSvcError, SvcError, toError } from '../../core/errors.js';
import { isSafeId, resolveIdArg, toIdDate } from '../../core/ids.js';
import { getArchived } from './archived.js';
import { readTaskNames } from './cached-rows.js';
import type { Paths } from '../disk/paths.js';
import { readTaskFile, type StoredTask } from '../disk/task-file.js';

/**
 * Reads one task by id argument as `store.get` does (the newer copy of an id found in two
 * directories), else an archived one, without loading the store's writing side (locks, atomic
 * writes): what `svc task show` reads without a daemon.
 */
export async function readTask(paths: Paths, arg: string, now: Date): Promise<StoredTask> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const names = await readTaskNames(paths);
    let id: string;
    try {
      id = isSafeId(arg) && names.has(arg) ? arg : resolveIdArg(arg, names.keys(), toIdDate(now));
    } catch (err) {
      if (isSvcError(err, 'not_found')) return getArchived(paths, arg, now);
      throw err;
    }
    const files = (names.get(id) ?? []).map((status) => paths.taskFile(status, id));
    const read = await Promise.all(files.map((path) => readTaskFile(path).catch((err: unknown) => toError(err))));
    const present = read.filter((copy) => !isGone(copy));
    if (!present.length) continue; // moved meanwhile: look again
    const valid = present.filter((copy): copy is StoredTask => !(copy instanceof Error));
    if (!valid.length) throw present[0]!;
    if (valid.length === 1) return valid[0]!;
    const { byNewest } = await import('../commit/protocol.js'); // an id in two directories: rare
    return valid.sort(byNewest)[0]!;
  }
  throw new SvcError('not_found', `Task ${arg} does not exist.`, 'List tasks with `svc task list`.');
}
