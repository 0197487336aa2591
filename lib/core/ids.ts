import { SvcError } from './errors.js';

/** `TASK-<YYYY-MM-DD>-<seq>`, seq zero-padded to at least 3 digits. */
export const TASK_ID_PATTERN = /^TASK-(\d{4}-\d{2}-\d{2})-(\d{3,})$/;

/** Any id the store accepts as a file name: letters, digits, `.`, `_`, `-`; no `..`, no leading dot. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The UTC date part of an id allocated at `now`. */
export function toIdDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Formats a task id from its date and sequence number. */
export function formatTaskId(date: string, seq: number): string {
  return `TASK-${date}-${String(seq).padStart(3, '0')}`;
}

/** The sequence number of an id of `date`, or null for other ids. */
export function toSeq(id: string, date: string): number | null {
  const match = TASK_ID_PATTERN.exec(id);
  if (!match || match[1] !== date) return null;
  return Number(match[2]);
}

/** True when `id` can safely name a task file. */
export function isSafeId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID.test(id) && !id.includes('..');
}

/** Throws `validation_error` unless `id` is safe as a file name (no `/`, no `..`). */
export function assertSafeId(id: unknown, what = 'task id'): string {
  if (isSafeId(id)) return id;
  throw new SvcError(
    'validation_error',
    `Invalid ${what} ${JSON.stringify(id)}: ids are letters, digits, '.', '_' and '-' (no '/', no '..').`,
    'Pass a task id such as TASK-2026-11-21-001, or a unique prefix of one.',
  );
}

/**
 * Resolves an id argument against known ids: the exact id, else the ids starting with it (with or
 * without the `TASK-` part), or, for a bare sequence (`007`, `-007`, `7`), the ids of any date
 * with that sequence number. Exactly one must match; several are `ambiguous_id`, listing them.
 */
export function resolveIdArg(arg: string, ids: Iterable<string>): string {
  const wanted = arg.trim();
  if (!wanted || !/^[A-Za-z0-9._-]+$/.test(wanted) || wanted.includes('..')) assertSafeId(wanted);
  const bare = /^-?(\d+)$/.exec(wanted);
  const seq = bare ? Number(bare[1]) : null;
  const matches: string[] = [];
  for (const id of ids) {
    if (id === wanted) return id;
    if (id.startsWith(wanted) || (id.startsWith('TASK-') && id.slice(5).startsWith(wanted)) || (seq !== null && toAnySeq(id) === seq)) matches.push(id);
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    const what = seq !== null ? `No task matches ${JSON.stringify(wanted)} (as an id prefix or a sequence number).` : `No task matches ${JSON.stringify(wanted)}.`;
    throw new SvcError('not_found', what, 'List tasks with `svc task list` and pass a full id, a unique prefix or a unique sequence such as 007.');
  }
  matches.sort();
  const shown = matches.slice(0, 10).join(', ') + (matches.length > 10 ? `, … (${matches.length} in all)` : '');
  const hint = seq !== null ? 'Several dates have this sequence: pass the date too, e.g. 2026-11-21-007.' : 'Pass more of the id so that exactly one task matches.';
  throw new SvcError('ambiguous_id', `${JSON.stringify(wanted)} matches ${matches.length} tasks: ${shown}.`, hint);
}

// --- internal ---

/** The sequence number of a task id of any date, or null. */
function toAnySeq(id: string): number | null {
  const match = TASK_ID_PATTERN.exec(id);
  return match ? Number(match[2]) : null;
}
