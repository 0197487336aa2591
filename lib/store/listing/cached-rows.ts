import { readdir } from 'node:fs/promises';
import { compareText } from '../../core/compare.js';
import { describeError, isGone } from '../../core/errors.js';
import { forEachLimit } from '../../core/limit.js';
import { STATUSES, type Status } from '../../core/status.js';
import { toTaskId, type Paths } from '../disk/paths.js';
import { loadRowCache, stampOf, type RowCache, type RowStamp } from './row-cache.js';
import type { InvalidFile } from '../commit/store.js';
import type { StoredTask } from '../disk/task-file.js';
import { toListRow, type ListRow } from './task-row.js';

/** Rows of some statuses, the files that did not parse, and how many tasks each status holds (by name). */
export interface RowListing {
  rows: ListRow[];
  invalid: InvalidFile[];
  /** Tasks per status directory, counted by file name (an id found twice counts where its newer copy is). */
  counts: Record<Status, number>;
}

/** Options of `listCachedRows`. */
export interface CachedRowsOptions {
  /** The statuses whose rows are wanted; the others are only counted by name. */
  statuses: readonly Status[];
  /** The running svc version: a cache written by another version is not used. */
  version: string;
}

/**
 * The listing rows of some statuses without a daemon: names from every status directory; for
 * each file of the statuses asked, its row from the row cache when the file is the very version
 * the row was read from, else read (and the cache updated). The task reader (YAML, zod) is loaded
 * only when a file must be read. An id in two directories is resolved by reading its copies, as
 * the store's listing does (the newer `updatedAt` wins).
 */
export async function listCachedRows(paths: Paths, options: CachedRowsOptions): Promise<RowListing> {
  const names = await readTaskNames(paths);
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<Status, number>;
  const wanted = new Set(options.statuses);
  const rows: ListRow[] = [];
  const invalid: InvalidFile[] = [];
  const single = new Map<Status, string[]>(options.statuses.map((status) => [status, []]));
  const twice: [string, Status[]][] = [];
  for (const [id, found] of names) {
    const [status] = found as [Status];
    if (found.length > 1) {
      twice.push([id, found]);
      continue;
    }
    counts[status] += 1;
    single.get(status)?.push(id);
  }
  for (const [status, ids] of single) {
    const cache = loadRowCache(paths.rowCache(status), status, options.version);
    await readRows(paths, { status, ids, cache }, { rows, invalid });
    await cache.save(new Set(ids.map((id) => `${id}.md`)));
  }
  for (const [id, found] of twice) {
    const winner = await readNewest(
      found.map((status) => paths.taskFile(status, id)),
      invalid,
    );
    if (!winner) continue;
    counts[winner.status] += 1;
    if (wanted.has(winner.status)) rows.push(toListRow(winner));
  }
  rows.sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id));
  return { rows, invalid: invalid.sort((a, b) => compareText(a.path, b.path)), counts };
}

/** id -> the status directories holding a file of that name (names only; the store's module is not loaded). */
export async function readTaskNames(paths: Paths): Promise<Map<string, Status[]>> {
  const out = new Map<string, Status[]>();
  const listed = await Promise.all(
    STATUSES.map(
      async (status) =>
        [
          status,
          await readdir(paths.statusDir(status)).catch((err: unknown) => {
            if (isGone(err)) return [];
            throw err;
          }),
        ] as const,
    ),
  );
  for (const [status, files] of listed) {
    for (const name of files) {
      const id = toTaskId(name);
      if (id) out.set(id, [...(out.get(id) ?? []), status]);
    }
  }
  return out;
}

// --- internal ---

/** Reads the rows of `ids` in `status` into `rows`, from the cache where it holds the same file version. */
async function readRows(
  paths: Paths,
  { status, ids, cache }: { status: Status; ids: readonly string[]; cache: RowCache },
  { rows, invalid }: { rows: ListRow[]; invalid: InvalidFile[] },
): Promise<void> {
  const stale: { path: string; name: string }[] = [];
  for (const id of ids) {
    const path = paths.taskFile(status, id);
    let stamp: RowStamp;
    try {
      stamp = stampOf(path);
    } catch (err) {
      if (isGone(err)) continue; // moved meanwhile: counted where it was
      throw err;
    }
    const row = cache.get(`${id}.md`, stamp);
    if (row && row.id === id && row.status === status) rows.push({ ...row, path });
    else stale.push({ path, name: `${id}.md` });
  }
  if (!stale.length) return;
  const { readTaskFileSettled } = await import('../disk/settled-read.js');
  await forEachLimit(stale, 64, async ({ path, name }) => {
    try {
      const stored = await readTaskFileSettled(path);
      const row = toListRow(stored);
      rows.push(row);
      cache.set(name, stored.stamp, row);
    } catch (err) {
      if (isGone(err)) return;
      invalid.push({ path, status, message: describeError(err) });
    }
  });
}

/** The newer of the copies of one id (as `store.list` picks it); copies that do not parse are reported. */
async function readNewest(files: readonly string[], invalid: InvalidFile[]): Promise<StoredTask | null> {
  const [{ readTaskFileSettled }, { byNewest }] = await Promise.all([
    import('../disk/settled-read.js'),
    import('../commit/protocol.js'),
  ]);
  let newest: StoredTask | null = null;
  for (const path of files) {
    try {
      const stored = await readTaskFileSettled(path);
      if (!newest || byNewest(stored, newest) < 0) newest = stored;
    } catch (err) {
      if (isGone(err)) continue;
      const status = path.split('/').at(-2) as Status;
      invalid.push({ path, status, message: describeError(err) });
    }
  }
  return newest;
}
