import { relative } from 'node:path';
import { describeError, isSvcError } from '../../core/errors.js';
import { STATUSES } from '../../core/status.js';
import { unlinkDurable } from '../../fs/atomic.js';
import { LOCK_STALE_MS, withLock } from '../../fs/lock/lock.js';
import { byNewest, commitTask, moveToConflicts } from '../commit/protocol.js';
import { confirmCopies } from '../commit/confirm-copies.js';
import { createEventLog, type EventLog } from '../events/log.js';
import type { Paths } from '../disk/paths.js';
import { isFixable, isStored, readCopies, type ReconcileAction, type ReconcilePlan } from './reconcile.js';
import { initTree } from '../commit/store.js';

// Applying a reconcile plan (reconcile.ts makes it): each action re-checked under its task's lock.

/** What `applyReconcile` did: fixed, found already fixed, failed, and left for a human. */
export interface ReconcileResult {
  applied: ReconcileAction[];
  skipped: ReconcileAction[];
  failed: { action: ReconcileAction; message: string }[];
  remaining: ReconcileAction[];
}

/** Options of `applyReconcile`. */
export interface ApplyOptions {
  /** Who the repairs' events name (`doctor`, `filesystem`). */
  actor: string;
  /** How long to wait for a task lock; the default outlasts the stale lock of a killed process. */
  lockWaitMs?: number;
  /** Where the events of the repairs go (the store's `events`); a failure to append them is not the repair's. */
  events?: EventLog;
}

/** Default lock wait of `applyReconcile`: a dead writer's lock goes stale before it runs out. */
export const RECONCILE_LOCK_WAIT_MS = LOCK_STALE_MS + 5_000;

/**
 * Applies a plan: missing directories through `initTree`, temporaries and duplicates under the
 * task lock, heals through the commit protocol (which logs one `task.transitioned`, actor
 * `filesystem`). Each action is re-checked first; running it twice does nothing the second time.
 */
export async function applyReconcile(
  paths: Paths,
  plan: ReconcilePlan,
  options: ApplyOptions,
): Promise<ReconcileResult> {
  const { actor } = options;
  const waitMs = options.lockWaitMs ?? RECONCILE_LOCK_WAIT_MS;
  const events = options.events ?? createEventLog(paths.root);
  const result: ReconcileResult = { applied: [], skipped: [], failed: [], remaining: [] };
  for (const action of plan.actions) {
    if (!isFixable(action.kind)) {
      result.remaining.push(action);
      continue;
    }
    try {
      const done = await applyAction(paths, action, { actor, waitMs, events, now: plan.now });
      (done ? result.applied : result.skipped).push(action);
    } catch (err) {
      result.failed.push({ action, message: describeError(err) });
    }
  }
  return result;
}

// --- internal ---

interface How {
  actor: string;
  waitMs: number;
  events: EventLog;
  /** The time of the plan, which the repairs record. */
  now: Date;
}

async function applyAction(paths: Paths, action: ReconcileAction, how: How): Promise<boolean> {
  const { now } = how;
  const lock = <T>(id: string, fn: () => Promise<T>) =>
    withLock(paths.lockFile(id), { what: id, waitMs: how.waitMs, fence: true }, fn);
  switch (action.kind) {
    case 'missing':
      await initTree(paths);
      return true;
    case 'temporary':
      return lock(action.id, () => unlinkDurable(action.path));
    case 'duplicate': {
      const moved = await lock(action.id, () => resolveDuplicate(paths, action.id, now));
      if (moved)
        await how.events.record(now, [
          {
            type: 'recovery_action',
            taskId: action.id,
            actor: how.actor,
            payload: { action: 'duplicate_resolved', details: moved },
          },
        ]);
      return moved !== null;
    }
    case 'heal':
      return heal(paths, action.id, how);
    default:
      return false;
  }
}

async function resolveDuplicate(
  paths: Paths,
  id: string,
  now: Date,
): Promise<{ kept: string; conflicts: string[] } | null> {
  const look = async () =>
    (
      (await readCopies(STATUSES.map((status) => ({ id, status, path: paths.taskFile(status, id) })))).get(id) ?? []
    ).filter(isStored);
  const valid = (
    await confirmCopies(paths.tasks, id, { first: await look(), look, inoOf: (copy) => copy.stamp.ino })
  ).sort(byNewest);
  if (valid.length < 2) return null;
  const conflicts: string[] = [];
  for (const loser of valid.slice(1))
    conflicts.push(relative(paths.root, await moveToConflicts(paths, loser.path, now)));
  return { kept: relative(paths.root, valid[0]!.path), conflicts };
}

async function heal(paths: Paths, id: string, how: How): Promise<boolean> {
  try {
    const result = await commitTask(paths, id, {
      change: (cur) => (cur.task.status === cur.status ? null : { task: cur.task, body: cur.body, status: cur.status }),
      now: how.now,
      actor: how.actor,
      lockWaitMs: how.waitMs,
      events: how.events,
    });
    return result.changed;
  } catch (err) {
    if (isSvcError(err, 'not_found')) return false;
    throw err;
  }
}
