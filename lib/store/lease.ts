import { SvcError } from '../core/errors.js';
import type { Lease, Task } from '../core/task.js';
import type { Change } from './commit.js';
import type { Store } from './store.js';
import type { StoredTask } from './task-file.js';

/** Lease TTL of a command-line claim, and the age past which CLI recovery reclaims a lease. */
export const CLI_LEASE_TTL_MS = 10 * 60_000;

/** True when the task holds a lease that has not expired at `now`. */
export function isLeaseLive(task: Task, now: Date): task is Task & { lease: Lease } {
  return !!task.lease && Date.parse(task.lease.expiresAt) > now.getTime();
}

/** True when the task holds a lease whose `expiresAt` has passed. */
export function isLeaseExpired(task: Task, now: Date): task is Task & { lease: Lease } {
  return !!task.lease && Date.parse(task.lease.expiresAt) <= now.getTime();
}

/** Throws `lease_held` ("Task has active lease") when another session's lease is live. */
export function assertNoLiveLease(current: StoredTask, now: Date, sessionId?: string): void {
  const { task } = current;
  if (!isLeaseLive(task, now) || task.lease.sessionId === sessionId) return;
  throw new SvcError(
    'lease_held',
    `Task has active lease: ${task.id} is held by agent ${task.lease.agent} (session ${task.lease.sessionId}) until ${task.lease.expiresAt}.`,
    'Wait for the agent to finish or the lease to expire; once expired, rerun with --recover-on-failure to reclaim it to ready.',
  );
}

/**
 * Fencing: a write that names a session must name the task's current lease. A lease that ended
 * (requeued, completed, taken over) makes every write of its session stale.
 */
export function assertSession(current: StoredTask, sessionId: string | undefined): void {
  if (sessionId === undefined) return;
  const lease = current.task.lease;
  if (lease && lease.sessionId === sessionId && current.status === 'in-progress') return;
  const now = lease ? `the current session is ${lease.sessionId} (agent ${lease.agent})` : `it holds no lease (status ${current.status})`;
  throw new SvcError('stale_session', `Session ${sessionId} no longer holds ${current.task.id}: ${now}.`, 'Stop working on this task; its lease ended and it may have been given to another agent.');
}

/** A change that clears an expired lease and moves the task back to ready, with the recovery event. */
export function toRecoveryChange(current: StoredTask, reason: string): Change {
  const lease = current.task.lease!;
  const task: Task = { ...current.task };
  delete task.lease;
  return {
    task,
    body: current.body,
    status: 'ready',
    reason,
    events: [{
      type: 'recovery_action',
      taskId: task.id,
      actor: 'system',
      payload: { action: 'lease_expired', details: { leaseExpiredAt: lease.expiresAt, transitionedTo: 'ready' } },
    }],
  };
}

/**
 * Runs an operator command (close, update, claim) with the lease rules of the command line: a live
 * lease fails with `Task has active lease`; with `recover`, an expired lease is reclaimed to ready
 * and the command fails asking for a retry.
 */
export async function commitAsOperator(
  store: Store,
  arg: string,
  options: { actor: string; recover?: boolean },
  build: (current: StoredTask) => Change | null,
): Promise<Awaited<ReturnType<Store['commit']>>> {
  let recovered: { id: string; expiredAt: string } | undefined;
  const result = await store.commit(arg, (current) => {
    const now = store.clock();
    assertNoLiveLease(current, now);
    if (options.recover && current.status === 'in-progress' && isLeaseExpired(current.task, now)) {
      recovered = { id: current.task.id, expiredAt: current.task.lease.expiresAt };
      return toRecoveryChange(current, 'lease expired (recover-on-failure)');
    }
    return build(current);
  }, options.actor);
  if (recovered) {
    throw new SvcError('lease_held', `Task has active lease: ${recovered.id} held a lease that expired at ${recovered.expiredAt}; it was reclaimed and moved to ready.`, 'Retry the command now.');
  }
  return result;
}
