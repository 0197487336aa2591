import { type BudgetWait, toBudgetWait } from '../disk/budget.js';
import type { StoredTask } from '../disk/task-file.js';

/** One task as listings show it (`svc task list --json`, the board, `svc task create --json`). */
export interface ListRow {
  id: string;
  title: string;
  status: string;
  priority: string;
  project: string;
  agent: string | null;
  createdAt: string;
  updatedAt: string;
  dependsOn: string[];
  path: string;
  /** After a failed dispatch, when the next attempt may start (absent when none is pending). */
  nextAttemptAt?: string;
  /** Who granted the lease of an in-progress task, `<host> pid <pid>` (several daemons may share a tree). */
  leasedBy?: string;
  /** `routing.team`, `routing.tags` and `parentId`, when set. */
  team?: string;
  tags?: string[];
  parentId?: string;
  /** `notBefore` of a task not yet dispatched: it waits until then. */
  notBefore?: string;
  /** `dueAt`: when the task is due. */
  dueAt?: string;
  /** A blocked task waiting for a person at an approval gate: the gate and since when. */
  awaiting?: { gate: string; since: string };
  /** A blocked task paused because a budget is spent: which budget, its figures and since when. */
  budgetWait?: BudgetWait;
}

/** The row of a stored task: the agent is the lease holder, else `routing.agent`. */
export function toListRow(stored: StoredTask): ListRow {
  const { task } = stored;
  return {
    id: task.id,
    title: task.title,
    status: stored.status,
    priority: task.priority,
    project: task.project,
    agent: task.lease?.agent ?? task.routing.agent ?? null,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    dependsOn: task.dependsOn,
    path: stored.path,
    ...toLeasedBy(task.lease),
    ...(stored.status === 'ready' && isTime(task.metadata.nextAttemptAt)
      ? { nextAttemptAt: task.metadata.nextAttemptAt }
      : {}),
    ...toGrouping({ ...task.routing, parentId: task.parentId }),
    ...toScheduleFields(stored.status, task),
    ...toAwaitingField(stored.status, task.metadata),
    ...toBudgetWaitField(stored.status, task.metadata),
  };
}

/** `{budgetWait}` of a task paused for a budget (`metadata.awaiting` of kind `budget`, unless done or cancelled). */
export function toBudgetWaitField(status: string, metadata: Record<string, unknown>): { budgetWait?: BudgetWait } {
  const wait = status === 'done' || status === 'cancelled' ? null : toBudgetWait(metadata);
  return wait ? { budgetWait: wait } : {};
}

/**
 * `{awaiting: {gate, since}}` of a task waiting at an approval gate (`metadata.awaiting`, whatever its directory unless
 * done or cancelled), else nothing (a fresh copy).
 */
export function toAwaitingField(
  status: string,
  metadata: Record<string, unknown>,
): { awaiting?: { gate: string; since: string } } {
  const value = metadata.awaiting as { gate?: unknown; since?: unknown } | undefined;
  if (status === 'done' || status === 'cancelled' || typeof value?.gate !== 'string' || typeof value.since !== 'string')
    return {};
  return { awaiting: { gate: `${value.gate}`, since: `${value.since}` } };
}

/** `{team, tags, parentId}`, each only when set (a row's optional grouping fields). */
export function toGrouping(from: {
  team?: string | undefined;
  tags?: string[] | undefined;
  parentId?: string | undefined;
}): Pick<ListRow, 'team' | 'tags' | 'parentId'> {
  return {
    ...(from.team ? { team: from.team } : {}),
    ...(from.tags?.length ? { tags: [...from.tags] } : {}),
    ...(from.parentId ? { parentId: from.parentId } : {}),
  };
}

/** `{leasedBy: "<host> pid <pid>"}` when a lease names who granted it, else nothing. */
export function toLeasedBy(lease: { host?: string | undefined; pid?: number | undefined } | undefined): {
  leasedBy?: string;
} {
  return lease?.host && lease.pid ? { leasedBy: `${lease.host} pid ${lease.pid}` } : {};
}

/** `{notBefore?, dueAt?}` of a row: `notBefore` while the task is in backlog or ready, `dueAt` always. */
export function toScheduleFields(
  status: string,
  task: { notBefore?: string | undefined; dueAt?: string | undefined },
): { notBefore?: string; dueAt?: string } {
  return {
    ...(task.notBefore && (status === 'ready' || status === 'backlog') ? { notBefore: task.notBefore } : {}),
    ...(task.dueAt ? { dueAt: task.dueAt } : {}),
  };
}

// --- internal ---

/**
 * `metadata.nextAttemptAt` as `toNextAttemptAt` reads it (not imported: the command line loads this module without
 * zod).
 */
function isTime(value: unknown): value is string {
  return typeof value === 'string' && Number.isFinite(Date.parse(value));
}
