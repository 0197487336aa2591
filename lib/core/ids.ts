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
 * Resolves an id argument against known ids: the exact id; else, for a bare sequence (`007`,
 * `-007`, `7`, `2`: digits with at most a leading dash), the task of `today` with that sequence
 * number, else the one of the most recent date that has it (never a date prefix: `2` would
 * prefix every `2026-...` id); else the ids starting with it, with or without the `TASK-` part.
 * Exactly one must match; several are `ambiguous_id`, listing them.
 */
export function resolveIdArg(arg: string, ids: Iterable<string>, today: string): string {
  const wanted = arg.trim();
  if (!wanted || !/^[A-Za-z0-9._-]+$/.test(wanted) || wanted.includes('..')) assertSafeId(wanted);
  const all = [...ids];
  if (all.includes(wanted)) return wanted;
  const seq = toBareSeq(wanted);
  if (seq !== null) return resolveSeq({ wanted, seq }, all, today);
  const matches = all.filter(
    (id) => id.startsWith(wanted) || (id.startsWith('TASK-') && id.slice(5).startsWith(wanted)),
  );
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new SvcError('not_found', `No task matches ${JSON.stringify(wanted)}.`, HINT);
  throw ambiguous(wanted, matches, 'Pass more of the id so that exactly one task matches.');
}

/** The sequence number of a bare sequence argument (`007`, `-007`, `7`), or null for anything else. */
export function toBareSeq(arg: string): number | null {
  const bare = /^-?(\d{1,15})$/.exec(arg.trim());
  return bare ? Number(bare[1]) : null;
}

// --- internal ---

const HINT = 'List tasks with `svc task list` and pass a full id, a unique prefix or a sequence such as 007.';

/** Today's task with sequence `seq`, else the most recent date's; null dates never match. */
function resolveSeq(arg: { wanted: string; seq: number }, ids: string[], today: string): string {
  const { wanted, seq } = arg;
  const byDate = new Map<string, string[]>();
  for (const id of ids) {
    const match = TASK_ID_PATTERN.exec(id);
    if (!match || Number(match[2]) !== seq) continue;
    byDate.set(match[1]!, [...(byDate.get(match[1]!) ?? []), id]);
  }
  const dates = [...byDate.keys()].sort().reverse();
  const date = byDate.has(today) ? today : dates[0];
  if (date === undefined) {
    throw new SvcError(
      'not_found',
      `No task has the sequence number ${JSON.stringify(wanted)} (a bare ` +
        `number is a sequence, today's first, then the most recent date's).`,
      HINT,
    );
  }
  const found = byDate.get(date)!;
  if (found.length === 1) return found[0]!;
  throw ambiguous(wanted, found, `Pass the full id, e.g. ${found.sort()[0]}.`);
}

function ambiguous(wanted: string, matches: string[], hint: string): SvcError {
  matches.sort();
  const shown = matches.slice(0, 10).join(', ') + (matches.length > 10 ? `, … (${matches.length} in all)` : '');
  return new SvcError('ambiguous_id', `${JSON.stringify(wanted)} matches ${matches.length} tasks: ${shown}.`, hint);
}
