import { MAX_DISPATCH_FAILURES, type AdapterKind } from '../../core/spawn.js';
import type { Task } from '../../core/task.js';
import type { CommitResult } from '../commit/protocol.js';
import type { Store } from '../commit/store.js';

const ACTOR = 'scheduler';

/** A task leased for a dispatch: the fencing session and the task as written. */
export interface Leased {
  sessionId: string;
  result: CommitResult;
}

/** Why an attempt failed: a reason code and, for a local process that exited, how it ended. */
export interface Failure {
  reason: string;
  exitCode?: number;
  signal?: string;
}

/**
 * A failure as one phrase: `ended_without_completion (exit code 1)`, `... (killed by SIGKILL)`, `... (exit code 0
 * without completing)`.
 */
export function describeFailure(failure: Failure): string {
  if (failure.signal) return `${failure.reason} (killed by ${failure.signal})`;
  if (failure.exitCode === undefined) return failure.reason;
  return `${failure.reason} (exit code ${failure.exitCode}${failure.exitCode === 0 ? ' without completing' : ''})`;
}

/** Who grants a lease: the host and pid recorded in it. */
export interface LeaseOwner {
  host: string;
  pid: number;
}

/** What a lease is for: the agent and adapter, how long, its session (fresh by default) and who grants it. */
export interface LeaseRequest {
  agent: string;
  adapter: AdapterKind;
  ttlMs: number;
  sessionId?: string;
  owner?: LeaseOwner;
}

/**
 * Leases a ready task to `agent` and moves it to in-progress, under the task lock after a re-read.
 * Returns null when the task is no longer ready (another daemon or process won it): a lease is
 * granted at most once, even with several daemons sharing the tree.
 */
export async function leaseTask(store: Store, taskId: string, request: LeaseRequest): Promise<Leased | null> {
  const { agent, adapter, ttlMs, owner } = request;
  const sessionId = request.sessionId ?? store.newSessionId();
  const result = await store.commit(
    taskId,
    (current) => {
      if (current.status !== 'ready' || current.task.status !== 'ready') return null;
      const expiresAt = new Date(store.clock().getTime() + ttlMs).toISOString();
      return {
        task: {
          ...current.task,
          lease: { agent, expiresAt, sessionId, ...(owner ? { host: owner.host, pid: owner.pid } : {}) },
        },
        body: current.body,
        status: 'in-progress',
        cause: 'dispatch',
        reason: `dispatched to ${agent}`,
        events: [
          {
            type: 'task.dispatched',
            taskId,
            actor: ACTOR,
            payload: { agent, adapter, sessionId, ...(owner ? { host: owner.host, pid: owner.pid } : {}) },
          },
        ],
      };
    },
    ACTOR,
  );
  return result.changed ? { sessionId, result } : null;
}

/** An attempt that failed: its task, its session, the agent it ran and how it ended. */
export interface FailedAttempt {
  taskId: string;
  sessionId: string;
  agent: string;
  failure: Failure;
}

/**
 * Records a failed attempt of `sessionId`: if the task is still in progress under that session it
 * goes back to ready with `dispatchFailures` + 1, `lastFailureReason` and, unless it is bound for
 * deadletter, `nextAttemptAt`: now plus `backoffMs[failures - 1]` (the last delay repeats).
 * Returns the new count, or null when the session no longer holds the task (it was completed,
 * requeued or taken over).
 */
export async function recordFailure(
  store: Store,
  attempt: FailedAttempt,
  backoffMs: readonly number[] = [],
): Promise<number | null> {
  const { taskId, sessionId, agent, failure } = attempt;
  const { reason } = failure;
  let failures: number | null = null;
  await store.commit(
    taskId,
    (current) => {
      if (current.status !== 'in-progress' || current.task.lease?.sessionId !== sessionId) return null;
      const count = Number(current.task.metadata.dispatchFailures ?? 0) + 1;
      failures = count;
      const { nextAttemptAt: _previous, ...rest } = current.task.metadata;
      const delay = count < MAX_DISPATCH_FAILURES ? (backoffMs[Math.min(count, backoffMs.length) - 1] ?? 0) : 0;
      const nextAttemptAt = delay > 0 ? new Date(store.clock().getTime() + delay).toISOString() : undefined;
      const metadata = {
        ...rest,
        dispatchFailures: count,
        lastFailureReason: reason,
        ...(nextAttemptAt ? { nextAttemptAt } : {}),
      };
      return {
        task: { ...current.task, metadata },
        body: current.body,
        status: 'ready',
        reason: `dispatch failed: ${describeFailure(failure)}`,
        events: [
          {
            type: 'dispatch.failed',
            taskId,
            actor: ACTOR,
            payload: {
              agent,
              reason,
              ...toExitFields(failure),
              failureCount: count,
              sessionId,
              ...(nextAttemptAt ? { nextAttemptAt } : {}),
            },
          },
        ],
      };
    },
    ACTOR,
  );
  return failures;
}

/** What a deadletter alert needs. */
export interface Deadlettered {
  task: Task;
  failureCount: number;
  lastFailureReason: string;
  /** How the last attempt's process ended, when the deadletter follows it at once. */
  last?: Failure;
}

/**
 * Moves a ready task with too many failures to deadletter, logging `task.deadletter` (with the exit code or signal of
 * `last`, the failure just recorded).
 */
export async function deadletterTask(store: Store, taskId: string, last?: Failure): Promise<Deadlettered | null> {
  let out: Deadlettered | null = null;
  await store.commit(
    taskId,
    (current) => {
      const failureCount = Number(current.task.metadata.dispatchFailures ?? 0);
      if (current.status !== 'ready' || failureCount < MAX_DISPATCH_FAILURES) return null;
      const lastFailureReason = String(current.task.metadata.lastFailureReason ?? 'unknown');
      out = { task: current.task, failureCount, lastFailureReason, ...(last ? { last } : {}) };
      return {
        task: current.task,
        body: current.body,
        status: 'deadletter',
        cause: 'deadletter',
        reason: 'max_dispatch_failures',
        events: [
          {
            type: 'task.deadletter',
            taskId,
            actor: ACTOR,
            payload: {
              reason: 'max_dispatch_failures',
              failureCount,
              lastFailureReason,
              ...(last ? toExitFields(last) : {}),
            },
          },
        ],
      };
    },
    ACTOR,
  );
  return out;
}

// --- internal ---

function toExitFields(failure: Failure): { exitCode?: number; signal?: string } {
  return {
    ...(failure.exitCode !== undefined ? { exitCode: failure.exitCode } : {}),
    ...(failure.signal ? { signal: failure.signal } : {}),
  };
}
