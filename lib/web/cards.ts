import { isTerminal, type Status } from '../core/status.js';
import type { IndexEntry, TaskIndex } from '../store/task-index.js';

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
}

/** How many cards of a terminal column (done, cancelled) a snapshot carries: the latest ones. */
export const TERMINAL_SHOWN = 50;

/** The card of `entry`; `slaIds` are the tasks with an SLA violation in progress. */
export function toCard(entry: IndexEntry, index: TaskIndex, slaIds: ReadonlySet<string>): Card {
  const { id, title, status, priority, agent, routing, gate, lease, nextAttemptAt, dependsOn, dispatchFailures, updatedAt } = entry;
  return {
    id, title, status, priority, tags: routing.tags ?? [], openDeps: dependsOn.filter((dep) => index.get(dep)?.status !== 'done'), dispatchFailures, updatedAt,
    ...(agent ? { agent } : {}), ...(routing.team ? { team: routing.team } : {}), ...(gate ? { gate: gate.current } : {}),
    ...(status === 'in-progress' && lease ? { leaseExpiresAt: lease.expiresAt } : {}),
    ...(status === 'ready' && nextAttemptAt ? { nextAttemptAt } : {}),
    ...(status === 'in-progress' && slaIds.has(id) ? { sla: true } : {}),
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
  return entries.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0)).slice(offset, offset + limit);
}
