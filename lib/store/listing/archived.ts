import { readdirSync } from 'node:fs';
import { hasCode, isSvcError, SvcError } from '../../core/errors.js';
import { resolveIdArg, toIdDate } from '../../core/ids.js';
import { isStatus } from '../../core/status.js';
import { parseTask } from '../../core/task.js';
import { MAX_FILE_BYTES, parseFrontmatter } from '../../fs/frontmatter.js';
import { readRegularFileSync } from '../../fs/regular-file.js';
import { isArchiveMonth, toTaskId, type Paths } from '../disk/paths.js';
import type { Store } from '../commit/store.js';
import type { StoredTask } from '../disk/task-file.js';

/** Every archived task: id -> its file (`tasks/archive/<yyyy-mm>/<id>.md`). Names only; nothing is read. */
export function listArchived(paths: Paths): Map<string, string> {
  const out = new Map<string, string>();
  for (const month of readNames(paths.archive).filter(isArchiveMonth).sort()) {
    for (const name of readNames(paths.archiveDir(month))) {
      const id = toTaskId(name);
      if (id) out.set(id, paths.archiveFile(month, id));
    }
  }
  return out;
}

/**
 * An archived task by id argument (full id, unique prefix or sequence, as for any task); its status
 * is the one it was archived in. `not_found` when no archived task matches.
 */
export function getArchived(paths: Paths, arg: string, now: Date): StoredTask {
  const archived = listArchived(paths);
  const id = resolveIdArg(arg, archived.keys(), toIdDate(now));
  const path = archived.get(id)!;
  const { text, stat } = readRegularFileSync(path, MAX_FILE_BYTES);
  const parsed = parseFrontmatter(text, path);
  const task = parseTask(parsed.data, path);
  if (task.id !== id || !isStatus(task.status))
    throw new SvcError(
      'validation_error',
      `${path}: the frontmatter id is ${JSON.stringify(task.id)}.`,
      'Rename the file to <id>.md or fix the id field.',
    );
  return {
    task,
    body: parsed.body,
    path,
    status: task.status,
    stamp: { ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs },
  };
}

/**
 * Resolves an id argument among the tasks, else among the archived ones (`svc task list --parent` of an archived
 * parent).
 */
export async function resolveAnyId(store: Store, arg: string): Promise<string> {
  try {
    return await store.resolve(arg);
  } catch (err) {
    if (!isSvcError(err, 'not_found')) throw err;
    return resolveIdArg(arg, listArchived(store.paths).keys(), toIdDate(store.clock()));
  }
}

// --- internal ---

function readNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return [];
    throw err;
  }
}
