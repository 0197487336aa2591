import { existsSync } from 'node:fs';
import { compareText } from '../../core/compare.js';
import { isSvcError } from '../../core/errors.js';
import { STATUSES, type Status } from '../../core/status.js';
import { requestDaemon, toDaemonError } from '../../daemon/instance/client.js';
import { toPaths } from '../../store/disk/paths.js';
import type { InvalidFile } from '../../store/commit/store.js';
import { loadStore, type Context } from './context.js';
import {
  isFiltering,
  selectTasks,
  toFilterQuery,
  type FilterFields,
  type TaskFilter,
} from '../../store/listing/task-filter.js';
import type { ListRow } from '../../store/listing/task-row.js';
import { ROUTES, tasksPath } from '../../net/protocol/routes.js';

/** A listing: its rows (oldest first), the files that did not parse, and where it came from. */
export interface Listing {
  rows: ListRow[];
  invalid: InvalidFile[];
  source: 'daemon' | 'files';
  /** Tasks of the statuses left out of the listing, per status (counted by name, never read). */
  unlisted: Partial<Record<Status, number>>;
}

/** The statuses a listing shows: one, or several (every status by default). */
export type Scope = Status | readonly Status[];

/**
 * The tasks of some statuses: from a running daemon's index (no file is read, the store module is
 * never loaded), else from the files. Without a daemon only the directories of the statuses shown
 * are read (through the row cache); the others are counted by name.
 */
export async function listRows(ctx: Context, scope: Scope = STATUSES, filter: TaskFilter = {}): Promise<Listing> {
  const statuses: readonly Status[] = typeof scope === 'string' ? [scope] : scope;
  return (await listFromDaemon(ctx, statuses, filter)) ?? (await listFromFiles(ctx, statuses, filter));
}

// --- internal ---

/**
 * The listing of a running daemon, or null when none runs. Several statuses go as `statuses=`,
 * which a daemon older than this command ignores (it lists all, and the rows are filtered here).
 */
async function listFromDaemon(ctx: Context, statuses: readonly Status[], filter: TaskFilter): Promise<Listing | null> {
  const paths = toPaths(ctx.root);
  if (!existsSync(paths.socket)) return null;
  let reply: { status: number; body: unknown };
  try {
    const query = toFilterQuery(filter);
    if (statuses.length === 1) query.set('status', statuses[0]!);
    else if (statuses.length < STATUSES.length) query.set('statuses', statuses.join(','));
    reply = await requestDaemon(
      paths.socket,
      { method: ROUTES.tasks.method, path: tasksPath(query) },
      { timeoutMs: 60_000 },
    );
  } catch (err) {
    if (isSvcError(err, 'unavailable')) return null;
    throw err;
  }
  if (reply.status !== 200) throw toDaemonError(reply.status, reply.body);
  const body = reply.body as {
    tasks: (Omit<ListRow, 'agent' | 'path'> & { agent?: string })[];
    invalid: InvalidFile[];
    counts?: Record<Status, number>;
  };
  const shown = (status: string) => statuses.includes(status as Status);
  const rows = body.tasks
    .filter((t) => shown(t.status))
    .map((t): ListRow => ({ ...t, agent: t.agent ?? null, path: paths.taskFile(t.status as Status, t.id) }));
  const unlisted: Partial<Record<Status, number>> = {};
  for (const status of STATUSES.filter((s) => !shown(s)))
    unlisted[status] = body.counts?.[status] ?? body.tasks.filter((t) => t.status === status).length;
  return {
    rows: rows.sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id)),
    invalid: body.invalid,
    source: 'daemon',
    unlisted,
  };
}

/** The listing from the files: rows from the row cache or read, the statuses not shown counted by name. */
async function listFromFiles(ctx: Context, statuses: readonly Status[], filter: TaskFilter): Promise<Listing> {
  const paths = toPaths(ctx.root);
  // Loaded only here: a listing served by a daemon reads no file.
  const [{ listCachedRows }, { readVersion }] = await Promise.all([
    import('../../store/listing/cached-rows.js'),
    import('./version.js'),
  ]);
  const { rows, invalid, counts } = await listCachedRows(paths, { statuses, version: readVersion() });
  const unlisted = Object.fromEntries(
    STATUSES.filter((status) => !statuses.includes(status)).map((status) => [status, counts[status]]),
  );
  if (!isFiltering(filter)) return { rows, invalid, source: 'files', unlisted };
  const parent = filter.parent === undefined ? undefined : await resolveParent(ctx, filter.parent);
  const { readTaskFile } = await import('../../store/disk/task-file.js');
  const selected = await selectTasks(
    rows,
    { ...filter, parent },
    { fieldsOf: toFilterFields, readBody: async (row) => (await readTaskFile(row.path)).body },
  );
  return { rows: selected, invalid, source: 'files', unlisted };
}

/** The full id of a `--parent` argument, archived tasks included (the store is loaded for it). */
async function resolveParent(ctx: Context, arg: string): Promise<string> {
  await loadStore();
  return (await import('../../store/listing/archived.js')).resolveAnyId(ctx.store(), arg);
}

function toFilterFields(row: ListRow): FilterFields {
  return { ...row, routing: { team: row.team, tags: row.tags } };
}
