import { existsSync } from 'node:fs';
import type { CAC } from 'cac';
import { compareText } from '../core/compare.js';
import { isSvcError } from '../core/errors.js';
import { assertStatus, STATUSES, type Status } from '../core/status.js';
import { requestDaemon, toDaemonError } from '../daemon/client.js';
import { toPaths } from '../store/paths.js';
import type { InvalidFile } from '../store/store.js';
import { loadStore, type Context } from './context.js';
import { formatInvalid, formatTaskTable, toListRow, toText, type ListRow } from './format.js';

/**
 * Registers `svc task list`. Light on purpose: with a daemon up, the listing comes from its index
 * and the store module (zod, YAML) is never loaded; without one, the files are read.
 */
export function registerTaskList(cli: CAC, ctx: Context): void {
  cli.command('list', 'List tasks').option('--status <status>', `Only this status (${STATUSES.join(', ')})`).option('--agent <id>', 'Only tasks routed or leased to this agent')
    .option('--json', 'Print a JSON array')
    .action(async (opts: Record<string, unknown>) => {
      const status = opts.status === undefined ? undefined : assertStatus(opts.status);
      const { rows, invalid } = (await listFromDaemon(ctx, status)) ?? (await listFromStore(ctx, status));
      const agent = toText(opts.agent);
      const shown = agent ? rows.filter((row) => row.agent === agent) : rows;
      formatInvalid(invalid).forEach((line) => ctx.io.stderr(`${line}\n`));
      if (opts.json) return ctx.io.stdout(`${JSON.stringify(shown)}\n`);
      formatTaskTable(shown).forEach((line) => ctx.print(line));
    });
}

// --- internal ---

/** The listing of a running daemon (its index: no file is read), or null when none runs. */
async function listFromDaemon(ctx: Context, status: Status | undefined): Promise<{ rows: ListRow[]; invalid: InvalidFile[] } | null> {
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
    path: paths.taskFile(t.status as Status, t.id),
  }));
  return { rows: rows.sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id)), invalid: body.invalid };
}

async function listFromStore(ctx: Context, status: Status | undefined): Promise<{ rows: ListRow[]; invalid: InvalidFile[] }> {
  await loadStore();
  const { tasks, invalid } = await ctx.store().list(status ? [status] : STATUSES);
  return { rows: tasks.map(toListRow), invalid };
}
