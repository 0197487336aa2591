import { existsSync } from 'node:fs';
import { compareText } from '../core/compare.js';
import { isSvcError } from '../core/errors.js';
import { STATUSES, type Status } from '../core/status.js';
import { requestDaemon, toDaemonError } from '../daemon/client.js';
import { toPaths } from '../store/paths.js';
import type { InvalidFile } from '../store/store.js';
import { loadStore, type Context } from './context.js';
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
export async function listRows(ctx: Context, status?: Status): Promise<Listing> {
  return (await listFromDaemon(ctx, status)) ?? (await listFromStore(ctx, status));
}

// --- internal ---

/** The listing of a running daemon, or null when none runs. */
async function listFromDaemon(ctx: Context, status: Status | undefined): Promise<Listing | null> {
  const paths = toPaths(ctx.root);
  if (!existsSync(paths.socket)) return null;
  let reply: { status: number; body: unknown };
  try {
    reply = await requestDaemon(paths.socket, 'GET', `/v1/tasks${status ? `?status=${status}` : ''}`, undefined, { timeoutMs: 60_000 });
  } catch (err) {
    if (isSvcError(err, 'unavailable')) return null;
    throw err;
  }
  if (reply.status !== 200) throw toDaemonError(reply.status, reply.body);
  const body = reply.body as { tasks: (ListRow & { agent?: string })[]; invalid: InvalidFile[] };
  const rows = body.tasks.map((t) => ({
    id: t.id, title: t.title, status: t.status, priority: t.priority, agent: t.agent ?? null, createdAt: t.createdAt, updatedAt: t.updatedAt, dependsOn: t.dependsOn,
    path: paths.taskFile(t.status as Status, t.id), ...(t.nextAttemptAt ? { nextAttemptAt: t.nextAttemptAt } : {}), ...(t.leasedBy ? { leasedBy: t.leasedBy } : {}),
    ...(t.notBefore ? { notBefore: t.notBefore } : {}), ...(t.dueAt ? { dueAt: t.dueAt } : {}),
  }));
  return { rows: rows.sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id)), invalid: body.invalid, source: 'daemon' };
}

async function listFromStore(ctx: Context, status: Status | undefined): Promise<Listing> {
  await loadStore();
  const { tasks, invalid } = await ctx.store().list(status ? [status] : STATUSES);
  return { rows: tasks.map(toListRow), invalid, source: 'files' };
}
