import { SvcError } from '../../core/errors.js';
import type { Lease, Task } from '../../core/task.js';
import type { Change } from '../commit/protocol.js';
import type { Store } from '../commit/store.js';
import type { StoredTask } from '../disk/task-file.js';

/** Lease TTL of a command-line claim, and the age past which CLI recovery reclaims a lease. */
export const CLI_LEASE_TTL_MS = 10 * 60_000;

/**
 * Who acts on a task: the actor, the lease session it names (if any), and how it would name a
 * lease, so that a refusal can show the exact command or call that works.
 */
export interface Caller {
  actor: string;
  sessionId?: string | undefined;
  /** The command (or tool call) that acts on `taskId` naming `sessionId`, for the hint of a refusal. */
  retry?: ((taskId: string, sessionId: string) => string) | undefined;
}

/** True when the task holds a lease that has not expired at `now`. */
export function isLeaseLive(task: Task, now: Date): task is Task & { lease: Lease } {
  return !!task.lease && Date.parse(task.lease.expiresAt) > now.getTime();
}

/** True when the task holds a lease whose `expiresAt` has passed. */
export function isLeaseExpired(task: Task, now: Date): task is Task & { lease: Lease } {
  return !!task.lease && Date.parse(task.lease.expiresAt) <= now.getTime();
}

/** True when `caller` holds `lease`: it names the lease's session, or, naming none, it is the lease's agent. */
export function isLeaseHolder(lease: Lease, caller: Caller): boolean {
  return caller.sessionId !== undefined ? caller.sessionId === lease.sessionId : caller.actor === lease.agent;
}

/**
 * The lease rule of every path that moves or rewrites a task (docs/command-line.md, "Lease rules"): a session
 * the caller names must be the task's current lease (`stale_session` otherwise); a live lease
 * held by someone else refuses the change with `lease_held` ("Task has active lease"), naming the
 * holder, the expiry and the command that would work. An expired lease no longer protects a task.
 */
export function assertLeaseAllows(current: StoredTask, now: Date, caller: Caller): void {
  assertSession(current, caller.sessionId);
  const { task } = current;
  if (!isLeaseLive(task, now) || isLeaseHolder(task.lease, caller)) return;
  const { agent, sessionId, expiresAt } = task.lease;
  const minutes = Math.max(1, Math.ceil((Date.parse(expiresAt) - now.getTime()) / 60_000));
  const retry = caller.retry?.(task.id, sessionId) ?? `pass sessionId "${sessionId}"`;
  throw new SvcError(
    'lease_held',
    `Task has active lease: ${task.id} is held by agent ${agent} (session ${sessionId}) ` +
      `until ${expiresAt} (${minutes} min from now); ${caller.actor} does not hold it.`,
    `To act on it as its holder: ${retry}. Otherwise wait until the lease ends or expires.`,
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
  const now = lease
    ? `the current session is ${lease.sessionId} (agent ${lease.agent})`
    : `it holds no lease (status ${current.status})`;
  throw new SvcError(
    'stale_session',
    `Session ${sessionId} no longer holds ${current.task.id}: ${now}.`,
    'Stop working on this task; its lease ended and it may have been given to another agent.',
  );
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
    events: [
      {
        type: 'recovery_action',
        taskId: task.id,
        actor: 'system',
        payload: { action: 'lease_expired', details: { leaseExpiredAt: lease.expiresAt, transitionedTo: 'ready' } },
      },
    ],
  };
}

/**
 * Runs an operator command (close, update, claim) under the lease rule; with `recover`, an
 * expired lease is first reclaimed to ready and the command fails asking for a retry.
 */
export async function commitAsOperator(
  store: Store,
  arg: string,
  options: Caller & { recover?: boolean | undefined; build: (current: StoredTask) => Change | null },
): Promise<Awaited<ReturnType<Store['commit']>>> {
  let recovered: { id: string; lease: Lease } | undefined;
  const result = await store.commit(
    arg,
    (current) => {
      const now = store.clock();
      assertLeaseAllows(current, now, options);
      if (options.recover && current.status === 'in-progress' && isLeaseExpired(current.task, now)) {
        recovered = { id: current.task.id, lease: current.task.lease };
        return toRecoveryChange(current, 'lease expired (recover-on-failure)');
      }
      return options.build(current);
    },
    options.actor,
  );
  if (recovered) {
    const { id, lease } = recovered;
    throw new SvcError(
      'lease_held',
      `The lease on ${id} had expired at ${lease.expiresAt} (agent ${lease.agent}, session ${lease.sessionId}): ` +
        `the lease was cleared and the task moved to ready (recovery_action); the command itself was not run.`,
      'Retry the command now: the task is in ready.',
    );
  }
  return result;
}
