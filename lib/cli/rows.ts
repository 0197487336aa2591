import { existsSync } from 'node:fs';
import { compareText } from '../core/compare.js';
import { isSvcError } from '../core/errors.js';
import { STATUSES, type Status } from '../core/status.js';
import { requestDaemon, toDaemonError } from '../daemon/client.js';
import { toPaths } from '../store/paths.js';
import type { InvalidFile } from '../store/store.js';
import { loadStore, type Context } from './context.js';
import { selectTasks, toFilterQuery, type TaskFilter } from '../store/task-filter.js';
import { toListRow, type ListRow } from '../store/task-row.js';

/** A listing: its rows (oldest first), the files that did not parse, and where it came from. */
export interface Listing {
  rows: ListRow[];
  invalid: InvalidFile[];
  source: 'daemon' | 'files';
}

/**
 * The tasks of one status, or all: from a running daemon's index (no file is read, the store
 * module is never loaded), else from the files.
 */
export async function listRows(ctx: Context, status?: Status, filter: TaskFilter = {}): Promise<Listing> {
  return (await listFromDaemon(ctx, status, filter)) ?? (await listFromStore(ctx, status, filter));
}

// --- internal ---

/** The listing of a running daemon, or null when none runs. */
async function listFromDaemon(ctx: Context, status: Status | undefined, filter: TaskFilter): Promise<Listing | null> {
  const paths = toPaths(ctx.root);
  if (!existsSync(paths.socket)) return null;
  let reply: { status: number; body: unknown };
  try {
    const query = toFilterQuery(filter);
    if (status) query.set('status', status);
    reply = await requestDaemon(paths.socket, 'GET', `/v1/tasks${query.size ? `?${query}` : ''}`, undefined, { timeoutMs: 60_000 });
  } catch (err) {
    if (isSvcError(err, 'unavailable')) return null;
    throw err;
  }
  if (reply.status !== 200) throw toDaemonError(reply.status, reply.body);
  const body = reply.body as { tasks: (Omit<ListRow, 'agent' | 'path'> & { agent?: string })[]; invalid: InvalidFile[] };
  const rows = body.tasks.map((t): ListRow => ({ ...t, agent: t.agent ?? null, path: paths.taskFile(t.status as Status, t.id) }));
  return { rows: rows.sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id)), invalid: body.invalid, source: 'daemon' };
}

async function listFromStore(ctx: Context, status: Status | undefined, filter: TaskFilter): Promise<Listing> {
  await loadStore();
  const store = ctx.store();
  const { tasks, invalid } = await store.list(status ? [status] : STATUSES);
  const parent = filter.parent === undefined ? undefined : await (await import('../store/archived.js')).resolveAnyId(store, filter.parent);
  const selected = await selectTasks(tasks, { ...filter, parent }, (stored) => stored.task, async (stored) => stored.body);
  return { rows: selected.map(toListRow), invalid, source: 'files' };
}
