import { isTerminal, type Status } from '../core/status.js';
import type { Hold } from '../engine/scheduler.js';
import type { IndexEntry, TaskIndex } from '../store/index/tasks.js';

/** One card of the board: what a column shows of a task (docs/web-board.md, "The board"). */
export interface Card {
  id: string;
  title: string;
  status: Status;
  priority: string;
  agent?: string;
  team?: string;
  tags: string[];
  gate?: string;
  leaseExpiresAt?: string;
  nextAttemptAt?: string;
  /** Dependencies not yet done. */
  openDeps: string[];
  dispatchFailures: number;
  updatedAt: string;
  /** The task's in-progress time passed its SLA limit (a `sla.violation` event while in progress). */
  sla?: boolean;
  /** Why a ready task waits, as the scheduler's last tick held it (`not-before`, `no-route`, `agent-paused`, ...). */
  hold?: { reason: string; detail: string };
  /** Not dispatched before this time (a backlog or ready task). */
  notBefore?: string;
  /** Due by this time (a task not done or cancelled); the page marks it overdue once it has passed. */
  dueAt?: string;
}

/** What a card shows beyond its task file: the tasks with an SLA violation in progress, and why ready tasks wait. */
export interface CardMarks {
  sla: ReadonlySet<string>;
  holds: ReadonlyMap<string, Hold>;
}

/** No marks: a card drawn from its file alone. */
export const NO_MARKS: CardMarks = { sla: new Set(), holds: new Map() };

/** How many cards of a terminal column (done, cancelled) a snapshot carries: the latest ones. */
export const TERMINAL_SHOWN = 50;

/** The card of `entry`, with its `marks` (an SLA violation in progress, why it is held). */
export function toCard(entry: IndexEntry, index: TaskIndex, marks: CardMarks): Card {
  const {
    id,
    title,
    status,
    priority,
    agent,
    routing,
    gate,
    lease,
    nextAttemptAt,
    dependsOn,
    dispatchFailures,
    updatedAt,
    notBefore,
    dueAt,
  } = entry;
  const hold = status === 'ready' ? marks.holds.get(id) : undefined;
  return {
    id,
    title,
    status,
    priority,
    tags: routing.tags ?? [],
    openDeps: dependsOn.filter((dep) => index.get(dep)?.status !== 'done'),
    dispatchFailures,
    updatedAt,
    ...(agent ? { agent } : {}),
    ...(routing.team ? { team: routing.team } : {}),
    ...(gate ? { gate: gate.current } : {}),
    ...(status === 'in-progress' && lease ? { leaseExpiresAt: lease.expiresAt } : {}),
    ...(status === 'ready' && nextAttemptAt ? { nextAttemptAt } : {}),
    ...(status === 'in-progress' && marks.sla.has(id) ? { sla: true } : {}),
    ...(hold ? { hold: { reason: hold.reason, detail: hold.detail } } : {}),
    ...((status === 'ready' || status === 'backlog') && notBefore ? { notBefore } : {}),
    ...(!isTerminal(status) && dueAt ? { dueAt } : {}),
  };
}

/** The cards of a snapshot: every active and deadletter task, and the latest `TERMINAL_SHOWN` of done and cancelled. */
export function selectSnapshot(entries: Iterable<IndexEntry>): IndexEntry[] {
  const active: IndexEntry[] = [];
  const terminal: Record<string, IndexEntry[]> = { done: [], cancelled: [] };
  for (const entry of entries) (isTerminal(entry.status) ? terminal[entry.status]! : active).push(entry);
  return [...active, ...Object.values(terminal).flatMap((list) => latest(list, 0, TERMINAL_SHOWN))];
}

/** The terminal tasks of one status, newest first, `offset` on, at most `limit`. */
export function latest(entries: IndexEntry[], offset: number, limit: number): IndexEntry[] {
  return entries
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
    .slice(offset, offset + limit);
}
