import { CHECK_AGENT } from '../../core/spawn.js';
import type { Store } from '../commit/store.js';

/** The actor of the requeues: the scheduler that finds a run gone or a lease expired. */
const ACTOR = 'scheduler';

/**
 * Moves an in-progress task whose lease (still `sessionId`) has expired back to ready (`lease.expired`).
 * The daemon's own lease (its checks outlived their timeouts) also drops the completion they held back.
 */
export async function expireLease(store: Store, taskId: string, sessionId: string): Promise<boolean> {
  const result = await store.commit(
    taskId,
    (current) => {
      const lease = current.task.lease;
      if (current.status !== 'in-progress' || !lease || lease.sessionId !== sessionId) return null;
      if (Date.parse(lease.expiresAt) > store.clock().getTime()) return null;
      const { pendingCheck: _held, ...metadata } = current.task.metadata;
      const checking = lease.agent === CHECK_AGENT;
      return {
        task: checking ? { ...current.task, metadata } : current.task,
        body: current.body,
        status: 'ready',
        reason: checking
          ? 'lease expired: its checks did not end within their timeouts; the completion they held back is dropped'
          : 'lease expired',
        events: [
          {
            type: 'lease.expired',
            taskId,
            actor: ACTOR,
            payload: { agent: lease.agent, sessionId, expiredAt: lease.expiresAt },
          },
        ],
      };
    },
    ACTOR,
  );
  return result.transitioned;
}

/**
 * Moves a task still in progress under `sessionId` back to ready when that session's run ended
 * unseen: started by an earlier daemon (a crash or a restart), its exit status is unknown, so it
 * is not counted as a failed dispatch. Returns true when the task moved.
 */
export function requeueOrphanedRun(store: Store, taskId: string, sessionId: string): Promise<boolean> {
  const reason =
    'its local agent, started by an earlier daemon, ended without completing (not counted as a failed dispatch)';
  return requeueSession(store, { taskId, sessionId }, reason);
}

/**
 * Moves a task still in progress under `sessionId` back to ready when its spawn was never handed
 * to an adapter (the daemon stopped between the lease and the spawn). Returns true when the task moved.
 */
export function requeueUnspawned(store: Store, taskId: string, sessionId: string): Promise<boolean> {
  return requeueSession(store, { taskId, sessionId }, 'spawn never handed to an adapter (daemon restart)');
}

// --- internal ---

/** Back to ready, for `reason`, while the task is still in progress under `sessionId`; true when it moved. */
async function requeueSession(
  store: Store,
  { taskId, sessionId }: { taskId: string; sessionId: string },
  reason: string,
): Promise<boolean> {
  const result = await store.commit(
    taskId,
    (current) => {
      if (current.status !== 'in-progress' || current.task.lease?.sessionId !== sessionId) return null;
      return { task: current.task, body: current.body, status: 'ready', reason };
    },
    ACTOR,
  );
  return result.transitioned;
}
