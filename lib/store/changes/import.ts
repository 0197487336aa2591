import type { EventPayloads } from '../../core/events.js';
import { canTransition, type Status } from '../../core/status.js';
import type { Task } from '../../core/task.js';
import { createTaskFile } from '../commit/create.js';
import type { CommitResult } from '../commit/protocol.js';
import type { Store } from '../commit/store.js';
import type { StoredTask } from '../disk/task-file.js';

/** An entry changed at its source, as the importer maps it onto the task re-read under the lock. */
export interface SourceUpdate {
  /** The source's status: applied when svc's transitions allow it (a direct move to done as a close). */
  status: Status;
  /** The task and body the source asks for, built from the task as it is now. */
  toTask: (current: StoredTask) => { task: Task; body: string };
  actor: string;
  /** The payload of the `task.imported` event. */
  payload: EventPayloads['task.imported'];
}

/** What an update did, and why the source's status was not applied (when it was not). */
export interface SourceUpdateResult {
  result: CommitResult;
  unapplied?: string;
}

/**
 * Creates an imported task under the id it was given (`tasks/<status>/<id>.md`, exclusively, under
 * its lock): null when a file of that id exists in any status directory.
 */
export async function createImportedTask(store: Store, task: Task, body: string): Promise<StoredTask | null> {
  return createTaskFile(store.paths, { task, body }, { unseen: true });
}

/**
 * Applies a change at the source to its task through the commit protocol (`task.imported`,
 * reason `changed at the source`). A status svc moves no task to from where it is stays unapplied.
 */
export async function updateImportedTask(store: Store, id: string, update: SourceUpdate): Promise<SourceUpdateResult> {
  let unapplied: string | undefined;
  const result = await store.commit(
    id,
    (current) => {
      const status = toReachable(current.status, update.status);
      unapplied =
        status.to === update.status
          ? undefined
          : `the source's status (${update.status}) is not applied: svc moves no task ` +
            `from ${current.status} to ${update.status}, so it stays ${current.status}` +
            (current.status === 'done' || current.status === 'cancelled'
              ? ' (a reopened entry is new work: svc task create)'
              : ` (svc task status ${current.task.id} <status> moves it)`);
      const { task, body } = update.toTask(current);
      return {
        task,
        body,
        status: status.to,
        ...(status.cause ? { cause: status.cause } : {}),
        reason: 'changed at the source',
        events: [{ type: 'task.imported', taskId: current.task.id, actor: update.actor, payload: update.payload }],
      };
    },
    update.actor,
  );
  return { result, ...(unapplied ? { unapplied } : {}) };
}

// --- internal ---

/**
 * The source's new status when svc's transition table allows it (a direct move to done as a close), else the current
 * one.
 */
function toReachable(from: Status, to: Status): { to: Status; cause?: 'close' } {
  if (from === to) return { to };
  if (canTransition(from, to)) return { to };
  if (to === 'done' && canTransition(from, to, 'close')) return { to, cause: 'close' };
  return { to: from };
}
