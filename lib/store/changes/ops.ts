import { SvcError } from '../../core/errors.js';
import { assertStatus, type Cause, type Status } from '../../core/status.js';
import { assertNotAwaiting } from './approval.js';
import type { CommitResult } from '../commit/protocol.js';
import { assertLeaseAllows, assertSession, type Caller } from './lease.js';
import type { Store } from '../commit/store.js';
import type { StoredTask } from '../disk/task-file.js';

/** Who acts (and the lease it names, if any), and why (logged with the transition). */
export interface ActOptions extends Caller {
  reason?: string | undefined;
}

/** Moves a task to `to` along the transition table; the same status is a no-op (`transitioned: false`). */
export async function setStatus(
  store: Store,
  arg: string,
  options: ActOptions & { to: Status; cause?: Cause },
): Promise<CommitResult> {
  const { to } = options;
  assertStatus(to);
  return store.commit(
    arg,
    (current) => {
      assertLeaseAllows(current, store.clock(), options);
      if (to !== 'cancelled' && to !== current.status) assertNotAwaiting(current, `moved to ${to}`);
      return toStatusChange(current, to, { reason: options.reason, cause: options.cause });
    },
    options.actor,
  );
}

/**
 * The change that moves `current` to `to` (null when it is already there); a block records where from
 * (`metadata.blockedFrom`).
 */
export function toStatusChange(
  current: StoredTask,
  to: Status,
  { reason, cause }: { reason?: string | undefined; cause?: Cause | undefined } = {},
) {
  if (current.status === to && current.task.status === to) return null;
  const task = { ...current.task, metadata: toBlockedFrom(current, to) };
  return { task, body: current.body, status: to, ...(reason ? { reason } : {}), ...(cause ? { cause } : {}) };
}

/** Backlog -> ready. */
export async function promoteTask(store: Store, arg: string, options: ActOptions): Promise<CommitResult> {
  return store.commit(
    arg,
    (current) => {
      if (current.status !== 'backlog') {
        throw new SvcError(
          'invalid_transition',
          `${current.task.id} is in ${current.status}, not backlog: only backlog tasks are promoted.`,
          `Use \`svc task status ${current.task.id} <status>\` to move it.`,
        );
      }
      return toStatusChange(current, 'ready', { reason: options.reason });
    },
    options.actor,
  );
}

/** Deadletter -> ready, with the dispatch failure counters reset and `task.resurrected` logged. */
export async function resurrectTask(store: Store, arg: string, options: ActOptions): Promise<CommitResult> {
  return store.commit(
    arg,
    (current) => {
      if (current.status !== 'deadletter') {
        throw new SvcError(
          'invalid_transition',
          `${current.task.id} is in ${current.status}, not deadletter: only deadlettered tasks are resurrected.`,
          'List them with `svc task list --status deadletter`.',
        );
      }
      const metadata = { ...current.task.metadata };
      const previousFailures = Number(metadata.dispatchFailures ?? 0);
      delete metadata.dispatchFailures;
      delete metadata.lastFailureReason;
      delete metadata.nextAttemptAt;
      return {
        task: { ...current.task, metadata },
        body: current.body,
        status: 'ready',
        reason: options.reason ?? 'resurrected',
        events: [
          {
            type: 'task.resurrected',
            taskId: current.task.id,
            actor: options.actor,
            payload: { from: 'deadletter', to: 'ready', previousFailures },
          },
        ],
      };
    },
    options.actor,
  );
}

/**
 * Moves a task to cancelled, recording `metadata.cancelReason`. No lease condition (docs/command-line.md,
 * "Lease rules"): cancelling is the kill switch for a run, so it works on a task another agent holds; that
 * agent's next call is `stale_session`. A caller that names a session must still name the current one.
 */
export async function cancelTask(store: Store, arg: string, options: ActOptions): Promise<CommitResult> {
  return store.commit(
    arg,
    (current) => {
      if (current.status === 'cancelled') return null;
      assertSession(current, options.sessionId);
      const metadata = options.reason
        ? { ...current.task.metadata, cancelReason: options.reason }
        : current.task.metadata;
      return {
        task: { ...current.task, metadata },
        body: current.body,
        status: 'cancelled',
        ...(options.reason ? { reason: options.reason } : {}),
        events: [
          {
            type: 'task.cancelled',
            taskId: current.task.id,
            actor: options.actor,
            payload: options.reason ? { reason: options.reason } : {},
          },
        ],
      };
    },
    options.actor,
  );
}

/** Blocks a task on something outside the task graph; `reason` is required and kept in `metadata.blockReason`. */
export async function blockTask(
  store: Store,
  arg: string,
  options: ActOptions & { reason: string },
): Promise<CommitResult> {
  if (!options.reason?.trim())
    throw new SvcError(
      'validation_error',
      'Blocking needs a reason.',
      'Say what the task waits for, e.g. reason: "waiting for API keys".',
    );
  return store.commit(
    arg,
    (current) => {
      assertLeaseAllows(current, store.clock(), options);
      return {
        task: { ...current.task, metadata: { ...toBlockedFrom(current, 'blocked'), blockReason: options.reason } },
        body: current.body,
        status: 'blocked',
        reason: options.reason,
        events: [
          { type: 'task.blocked', taskId: current.task.id, actor: options.actor, payload: { reason: options.reason } },
        ],
      };
    },
    options.actor,
  );
}

/** Where an unblock may send a task: ready (the default), or backlog when the operator asks for it. */
export type UnblockTo = 'ready' | 'backlog';

/** Blocked -> ready, or -> backlog when `to` says so (a gated task stays at its gate). */
export async function unblockTask(
  store: Store,
  arg: string,
  options: ActOptions & { to?: UnblockTo | undefined },
): Promise<CommitResult> {
  const to = options.to ?? 'ready';
  return store.commit(
    arg,
    (current) => {
      if (current.status !== 'blocked') {
        throw new SvcError(
          'invalid_transition',
          `${current.task.id} is in ${current.status}, not blocked: there is nothing to unblock.`,
          'Only blocked tasks can be unblocked.',
        );
      }
      assertNotAwaiting(current, 'unblocked');
      const metadata = toBlockedFrom(current, to);
      delete metadata.blockReason;
      return {
        task: { ...current.task, metadata },
        body: current.body,
        status: to,
        reason: options.reason ?? (to === 'backlog' ? 'unblocked into backlog' : 'unblocked'),
        // the transition says where to
        events: [{ type: 'task.unblocked', taskId: current.task.id, actor: options.actor, payload: {} }],
      };
    },
    options.actor,
  );
}

// --- internal ---

/** The metadata after a move to `to`: a block records the status it came from, any move out of blocked forgets it. */
function toBlockedFrom(current: StoredTask, to: Status): Record<string, unknown> {
  const metadata = { ...current.task.metadata };
  if (to === 'blocked' && current.status !== 'blocked') metadata.blockedFrom = current.status;
  else if (to !== 'blocked') delete metadata.blockedFrom;
  return metadata;
}
