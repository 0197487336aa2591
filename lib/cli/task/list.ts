import type { CAC } from 'cac';
import { toCutoff } from '../../core/time/duration.js';
import { SvcError } from '../../core/errors.js';
import { PRIORITIES } from '../../core/priority.js';
import { assertStatus, isTerminal, STATUSES, type Status } from '../../core/status.js';
import { toDidYouMean } from '../../core/suggest.js';
import { isFiltering, type TaskFilter } from '../../store/listing/task-filter.js';
import type { Context } from '../frame/context.js';
import { formatInvalid, formatTaskTable, toList, toText } from '../output/format.js';
import { listRows } from '../frame/rows.js';
import { asUsage, toUsageError } from '../frame/usage.js';

/**
 * Registers `svc task list`. Light on purpose: with a daemon up, the listing comes from its index
 * and the store module (zod, YAML) is never loaded; without one, the files are read.
 */
export function registerTaskList(cli: CAC, ctx: Context): void {
  cli
    .command(
      'list',
      `List the tasks not done or cancelled, oldest first (from the daemon's index when one runs, else ` +
        `from the files); the filters combine with AND\n--status takes one of: ${STATUSES.join(', ')}`,
    )
    .option('--status <statuses>', 'Only these statuses, comma-separated (done and cancelled included)')
    .option('--all', 'Every status, done and cancelled included')
    .option('--agent <id>', 'Only tasks routed or leased to this agent')
    .option('--tag <tags>', 'Only tasks with every one of these tags (comma-separated)')
    .option('--project <id>', 'Only this project')
    .option('--team <id>', 'Only tasks routed to this team')
    .option('--priority <p>', `Only this priority (${PRIORITIES.join(', ')})`)
    .option('--parent <id>', 'Only subtasks of this task')
    .option('--since <when>', 'Only tasks updated since a duration back from now (2h, 7d) or a date')
    .option('--text <words>', 'Only tasks whose title or body holds every word (case-insensitive)')
    .option(
      '--awaiting',
      'Only tasks waiting at an approval gate, longest wait first, with how long (docs/approvals-and-logs.md)',
    )
    .option('--json', 'Print a JSON array')
    .example('svc task list --status ready --team core --tag api --since 2d --text login')
    .action(async (opts: Record<string, unknown>) => {
      const status = opts.status === undefined ? undefined : asUsage(() => toStatuses(opts.status));
      const filter = toTaskFilter(opts, new Date());
      const { rows, invalid, unlisted } = await listRows(ctx, status ?? (opts.all ? STATUSES : LISTED), filter);
      const agent = toText(opts.agent);
      const kept = agent ? rows.filter((row) => row.agent === agent) : rows;
      const approval = opts.awaiting ? await import('./approval.js') : null;
      const shown = approval ? approval.toAwaitingRows(kept) : kept;
      formatInvalid(invalid).forEach((line) => ctx.io.stderr(`${line}\n`));
      const note =
        (status ?? opts.all ?? opts.awaiting)
          ? null
          : toUnlistedNote(unlisted, { filtering: agent !== undefined || isFiltering(filter) });
      if (opts.json) {
        ctx.io.stdout(`${JSON.stringify(shown)}\n`);
        if (note) ctx.io.stderr(`${note}\n`);
        return;
      }
      if (approval) return approval.formatAwaiting(shown, new Date()).forEach((line) => ctx.print(line));
      formatTaskTable(shown, ctx.paint).forEach((line) => ctx.print(line));
      if (note) ctx.print(ctx.paint.dim(note));
    });
}

/** What `svc task list` shows without `--status` or `--all`: every status but done and cancelled. */
export const LISTED: readonly Status[] = STATUSES.filter((status) => !isTerminal(status));

/** The filters of the options; a bad priority or `--since` is a `validation_error`. */
export function toTaskFilter(opts: Record<string, unknown>, now: Date): TaskFilter {
  const priority = toText(opts.priority);
  if (priority !== undefined && !(PRIORITIES as readonly string[]).includes(priority)) {
    throw toUsageError(
      new SvcError(
        'validation_error',
        `Unknown priority ${JSON.stringify(priority)}.${toDidYouMean(priority, PRIORITIES)}`,
        `Use one of: ${PRIORITIES.join(', ')}.`,
      ),
    );
  }
  const since = toText(opts.since);
  const text = toText(opts.text);
  if (text !== undefined && !text.trim())
    throw new SvcError('validation_error', '--text is empty.', 'Pass the words to look for, e.g. --text "login page".');
  const filter: TaskFilter = {
    tags: toList(opts.tag),
    project: toText(opts.project),
    team: toText(opts.team),
    priority,
    parent: toText(opts.parent),
    since: since === undefined ? undefined : toCutoff(since, now, '--since').toISOString(),
    text,
  };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as TaskFilter;
}

// --- internal ---

/** `--status ready` or `--status in-progress,ready`: each one checked, duplicates dropped. */
function toStatuses(value: unknown): Status[] {
  const names = (toList(value) ?? []).map((name) => name.trim()).filter(Boolean);
  if (!names.length)
    throw new SvcError(
      'validation_error',
      '--status: no status given.',
      `Use one or more of: ${STATUSES.join(', ')}, comma-separated.`,
    );
  return [...new Set(names.map((name) => assertStatus(name)))];
}

/** The line under a listing that left done and cancelled tasks out: how many, and how to list them. */
function toUnlistedNote(
  unlisted: Partial<Record<Status, number>>,
  { filtering }: { filtering: boolean },
): string | null {
  const counts = (['done', 'cancelled'] as const)
    .filter((status) => (unlisted[status] ?? 0) > 0)
    .map((status) => `${unlisted[status]} ${status}`);
  if (!counts.length) return null;
  if (filtering) return '(done and cancelled tasks not searched: --all searches every status)';
  return `(not listed: ${counts.join(' and ')}; --all lists every status, --status done one)`;
}
