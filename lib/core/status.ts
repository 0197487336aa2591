import { SvcError } from './errors.js';
import { toDidYouMean } from './suggest.js';

/** Every task status; the directory under `tasks/` is the status. */
export const STATUSES = ['backlog', 'ready', 'in-progress', 'blocked', 'done', 'deadletter', 'cancelled'] as const;
export type Status = (typeof STATUSES)[number];

/** Statuses a task never leaves. */
export const TERMINAL_STATUSES = ['done', 'cancelled'] as const satisfies readonly Status[];

/** Statuses the rescan reads often (docs/architecture.md, "Index"). */
export const ACTIVE_STATUSES = ['backlog', 'ready', 'in-progress', 'blocked'] as const satisfies readonly Status[];

/**
 * Why a transition happens. Most moves are allowed for any cause; a few are reserved:
 * `close` (svc task close) for a direct move to done, `dispatch`/`claim` for ready -> in-progress,
 * `deadletter` for ready -> deadletter.
 */
export const CAUSES = ['move', 'close', 'dispatch', 'claim', 'deadletter', 'complete'] as const;
export type Cause = (typeof CAUSES)[number];

type Rule = readonly Cause[] | 'any';

/** The transition table (docs/state-on-disk.md). */
export const TRANSITIONS: Readonly<Record<Status, Partial<Record<Status, Rule>>>> = {
  backlog: { ready: 'any', blocked: 'any', cancelled: 'any', done: ['close'] },
  ready: {
    backlog: 'any',
    'in-progress': ['dispatch', 'claim'],
    blocked: 'any',
    deadletter: ['deadletter'],
    cancelled: 'any',
    done: ['close'],
  },
  'in-progress': { ready: 'any', done: 'any', blocked: 'any', cancelled: 'any' },
  blocked: { ready: 'any', backlog: 'any', cancelled: 'any', done: ['close'] },
  deadletter: { ready: 'any', cancelled: 'any', done: ['close'] },
  done: {},
  cancelled: {},
};

/** True when `value` names a status. */
export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/** True for done and cancelled. */
export function isTerminal(status: Status): boolean {
  return (TERMINAL_STATUSES as readonly Status[]).includes(status);
}

/** True when `from -> to` is allowed for `cause`. A move to the same status is never a transition. */
export function canTransition(from: Status, to: Status, cause: Cause = 'move'): boolean {
  const rule = TRANSITIONS[from][to];
  if (!rule) return false;
  return rule === 'any' || rule.includes(cause);
}

/** The statuses reachable from `from` by `cause`. */
export function nextStatuses(from: Status, cause: Cause = 'move'): Status[] {
  return STATUSES.filter((to) => canTransition(from, to, cause));
}

/** A move of a task from one status to another. */
export interface StatusMove {
  /** The status the task is in. */
  from: Status;
  /** The status it is to move to. */
  to: Status;
}

/** Throws `invalid_transition` naming the task, both states and the allowed moves. */
export function assertTransition(id: string, move: StatusMove, cause: Cause = 'move'): void {
  const { from, to } = move;
  if (canTransition(from, to, cause)) return;
  const moves = toMoveList(from, cause);
  const hint = moves.length
    ? `From ${from}, ${id} can move to: ${moves.join(', ')}.`
    : `${from} is terminal: ${id} cannot move any more.`;
  const reserved = TRANSITIONS[from][to];
  const why = Array.isArray(reserved) ? ` (only by ${reserved.join(' or ')})` : '';
  throw new SvcError('invalid_transition', `${id} cannot move from ${from} to ${to}${why}.`, hint);
}

/**
 * Throws `invalid_transition` when a task in `status` is terminal (done, cancelled): `what` (its
 * priority, routing, dependencies, times) only matters to a task that may still run.
 */
export function assertSchedulable(id: string, status: Status, what: string): void {
  if (!isTerminal(status)) return;
  throw new SvcError(
    'invalid_transition',
    `${id} is ${status}, which is terminal: changing ${what} means ` +
      `nothing for a task that never runs again, so nothing was changed.`,
    `For the same work again, create a new task (svc task create "<title>", or svc_dispatch); ` +
      `its title and body can still be edited (svc task edit ${id} --title "...").`,
  );
}

/** Throws `validation_error` unless `value` is a status. */
export function assertStatus(value: unknown): Status {
  if (isStatus(value)) return value;
  throw new SvcError(
    'validation_error',
    `Unknown status ${JSON.stringify(value)}.${toDidYouMean(String(value), STATUSES)}`,
    `Use one of: ${STATUSES.join(', ')}.`,
  );
}

// --- internal ---

/**
 * Causes that only the scheduler has (a deadletter after repeated failures): a move reserved to them is nothing a
 * caller can do, so a hint leaves it out.
 */
const SCHEDULER_ONLY: readonly Cause[] = ['deadletter'];

/**
 * Every move out of `from`, the table's order: those open to `cause` as they are, the reserved ones with who makes
 * them.
 */
function toMoveList(from: Status, cause: Cause): string[] {
  return STATUSES.flatMap((to) => {
    const rule = TRANSITIONS[from][to];
    if (!rule) return [];
    if (rule === 'any' || rule.includes(cause)) return [to];
    return rule.every((only) => SCHEDULER_ONLY.includes(only)) ? [] : [`${to} (only by ${rule.join(' or ')})`];
  });
}
