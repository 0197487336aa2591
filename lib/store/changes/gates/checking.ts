import { CHECK_AGENT } from '../../../core/spawn.js';
import type { Task } from '../../../core/task.js';
import type { Change } from '../../commit/protocol.js';
import type { CompleteInput, GateFlow } from './gate-flow.js';
import type { Store } from '../../commit/store.js';
import type { StoredTask } from '../../disk/task-file.js';

/**
 * How long the daemon's lease on a task whose checks are due holds it until a check runner starts
 * them (a daemon on the task's host; none may run right now). The runner then sets it to the
 * checks' timeouts (`leaseChecks`); past either, the planner expires it like any other lease.
 */
const CHECK_LEASE_MS = 24 * 60 * 60 * 1000;

/** A completion held back while the daemon runs its checks (`metadata.pendingCheck`). */
export interface PendingCheck {
  checks: string[];
  /** The completion to apply when every check passes. */
  input: Pick<CompleteInput, 'actor' | 'summary' | 'outcome' | 'callerRole'>;
  /** The gate that was completed (a gated task). */
  gate?: string | undefined;
  /** The agent whose completion this is, and when it asked. */
  agent: string;
  at: string;
}

/**
 * The checks a completion must pass first (docs/workspaces.md): outcome `complete` of a gate with
 * `verify`, or of a task with `routing.verify` (on a gated task, when the completion would make it
 * done). None for other outcomes. Whoever the caller says it is: the actor is not trusted here.
 */
export function toDueChecks(task: Task, input: CompleteInput, flow: GateFlow | null): string[] {
  if ((input.outcome ?? 'complete') !== 'complete') return [];
  if (!flow) return [...(task.routing.verify ?? [])];
  const index = Math.max(
    0,
    flow.gates.findIndex((gate) => gate.id === (task.gate?.current ?? flow.gates[0]?.id)),
  );
  const gate = flow.gates[index];
  const last = index === flow.gates.length - 1;
  return [...new Set([...(gate?.verify ?? []), ...(last ? (task.routing.verify ?? []) : [])])];
}

/**
 * Keeps the task in progress, leased to the daemon itself (`agent: svc`), with the completion to apply once its checks
 * pass.
 */
export function toCheckingChange(
  current: StoredTask,
  { input, checks }: { input: CompleteInput; checks: string[] },
  store: Store,
): Change {
  const { task } = current;
  const now = store.clock();
  const sessionId = store.newSessionId();
  const pending: PendingCheck = {
    checks,
    agent: task.lease?.agent ?? input.actor,
    at: now.toISOString(),
    ...(task.gate ? { gate: task.gate.current } : {}),
    input: {
      actor: input.actor,
      ...(input.summary !== undefined ? { summary: input.summary } : {}),
      ...(input.outcome ? { outcome: input.outcome } : {}),
      ...(input.callerRole ? { callerRole: input.callerRole } : {}),
    },
  };
  const host = task.workspace?.host ?? task.lease?.host;
  const lease = {
    agent: CHECK_AGENT,
    sessionId,
    expiresAt: new Date(now.getTime() + CHECK_LEASE_MS).toISOString(),
    ...(host ? { host } : {}),
  };
  return {
    task: { ...task, lease, metadata: { ...task.metadata, pendingCheck: pending } },
    body: current.body,
    status: 'in-progress',
    reason: `checks ${checks.join(', ')} run before the completion goes through`,
    events: [
      {
        type: 'task.checking',
        taskId: task.id,
        actor: input.actor,
        payload: { checks, sessionId, ...(task.gate ? { gate: task.gate.current } : {}) },
      },
    ],
  };
}

/** The task whose checks run and the daemon's session that holds it while they run. */
export interface ChecksSession {
  taskId: string;
  sessionId: string;
}

/**
 * Sets the daemon's lease on a task whose checks start to expire `ms` from now (the checks'
 * timeouts and a margin); false when `sessionId` no longer holds the task (cancelled, expired).
 */
export async function leaseChecks(store: Store, { taskId, sessionId }: ChecksSession, ms: number): Promise<boolean> {
  const result = await store.commit(
    taskId,
    (current) => {
      const lease = current.task.lease;
      if (current.status !== 'in-progress' || lease?.agent !== CHECK_AGENT || lease.sessionId !== sessionId)
        return null;
      const expiresAt = new Date(store.clock().getTime() + ms).toISOString();
      return {
        task: { ...current.task, lease: { ...lease, expiresAt } },
        body: current.body,
        status: 'in-progress',
        events: [],
        touch: false,
      };
    },
    CHECK_AGENT,
  );
  return result.changed;
}

/** The pending completion of a task whose checks run, or null. */
export function toPendingCheck(task: Task): PendingCheck | null {
  const pending = task.metadata.pendingCheck as Partial<PendingCheck> | undefined;
  if (!pending || !Array.isArray(pending.checks) || typeof pending.input?.actor !== 'string') return null;
  return pending as PendingCheck;
}
