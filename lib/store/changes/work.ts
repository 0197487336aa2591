import { SvcError } from '../../core/errors.js';
import type { EventInput } from '../../core/events.js';
import { assertStatus, type Status } from '../../core/status.js';
import { assertTaskText, type Task } from '../../core/task.js';
import { assertNotAwaiting } from './approval.js';
import type { Change, CommitResult } from '../commit/protocol.js';
import { assertLeaseAllows, CLI_LEASE_TTL_MS, commitAsOperator, isLeaseHolder, type Caller } from './lease.js';
import { toStatusChange } from './ops.js';
import type { Store } from '../commit/store.js';
import type { StoredTask } from '../disk/task-file.js';

/** What `svc_task_update` / `svc task update` may change. */
export interface UpdateInput extends Caller {
  body?: string | undefined;
  status?: Status | undefined;
  reason?: string | undefined;
  /** Heartbeat by the lease holder: the lease lasts at least this long from now. */
  leaseTtlMs?: number;
}

/** The return shape of `svc_task_update`. */
export interface UpdateResult {
  taskId: string;
  status: Status;
  updatedAt: string;
  bodyUpdated: boolean;
  transitioned: boolean;
}

/** Body replace, status change and heartbeat (lease renewal by its holder) in one commit. */
export async function updateTask(store: Store, arg: string, input: UpdateInput): Promise<UpdateResult> {
  if (input.status !== undefined) assertStatus(input.status);
  assertTaskText(undefined, input.body);
  const result = await store.commit(arg, (current) => toUpdateChange(current, input, store.clock()), input.actor);
  return toUpdateResult(result);
}

/** `svc task update`: the same change, under the command line's lease rules. */
export async function updateTaskAsOperator(
  store: Store,
  arg: string,
  input: UpdateInput & { recover?: boolean },
): Promise<UpdateResult> {
  if (input.status !== undefined) assertStatus(input.status);
  assertTaskText(undefined, input.body);
  const result = await commitAsOperator(store, arg, {
    ...input,
    build: (current) => toUpdateChange(current, input, store.clock()),
  });
  return toUpdateResult(result);
}

/**
 * `svc task claim`: ready -> in-progress under a fresh lease for `agent` (the operator by default; 10 minutes by
 * default).
 */
export async function claimTask(
  store: Store,
  arg: string,
  options: Caller & { agent?: string | undefined; recover?: boolean; ttlMs?: number },
): Promise<CommitResult> {
  return commitAsOperator(store, arg, {
    ...options,
    build: (current) => {
      if (current.status !== 'ready') {
        throw new SvcError(
          'invalid_transition',
          `${current.task.id} is in ${current.status}: only ready tasks can be claimed.`,
          current.status === 'backlog'
            ? `Promote it first: svc task promote ${current.task.id}`
            : 'Pick a task from `svc task list --status ready`.',
        );
      }
      const now = store.clock();
      const lease = {
        agent: options.agent ?? 'operator',
        expiresAt: new Date(now.getTime() + (options.ttlMs ?? CLI_LEASE_TTL_MS)).toISOString(),
        sessionId: store.newSessionId(),
      };
      return {
        task: { ...current.task, lease },
        body: current.body,
        status: 'in-progress',
        cause: 'claim',
        reason: `claimed by ${lease.agent}`,
      };
    },
  });
}

/** `svc task close`: any non-terminal status -> done. */
export async function closeTask(
  store: Store,
  arg: string,
  options: Caller & { recover?: boolean; reason?: string | undefined },
): Promise<CommitResult> {
  return commitAsOperator(store, arg, {
    ...options,
    build: (current) => {
      const change = toStatusChange(current, 'done', { reason: options.reason ?? 'closed', cause: 'close' });
      return (
        change && {
          ...change,
          events: [
            { type: 'task.completed', taskId: current.task.id, actor: options.actor, payload: { via: 'close' } },
          ],
        }
      );
    },
  });
}

// --- internal ---

function toUpdateChange(current: StoredTask, input: UpdateInput, now: Date): Change | null {
  assertLeaseAllows(current, now, input);
  const task: Task = { ...current.task };
  const holder = task.lease && isLeaseHolder(task.lease, input);
  let renewed = false;
  if (holder && task.lease && input.leaseTtlMs) {
    // A heartbeat pushes the expiry to at least now + TTL; it never shortens the dispatch lease.
    const expiresAt = Math.max(Date.parse(task.lease.expiresAt), now.getTime() + input.leaseTtlMs);
    task.lease = { ...task.lease, expiresAt: new Date(expiresAt).toISOString() };
    renewed = expiresAt !== Date.parse(current.task.lease!.expiresAt);
  }
  const body = input.body ?? current.body;
  const status = input.status ?? current.status;
  if (status !== current.status && status !== 'cancelled') assertNotAwaiting(current, `moved to ${status}`);
  const bodyUpdated = input.body !== undefined && input.body.trimEnd() !== current.body.trimEnd();
  if (!renewed && !bodyUpdated && status === current.status) return null;
  const events: EventInput[] = bodyUpdated
    ? [{ type: 'task.updated', taskId: task.id, actor: input.actor, payload: { fields: ['body'] } }]
    : [];
  const change: Change = { task, body, status, events, touch: bodyUpdated || status !== current.status };
  if (input.reason) change.reason = input.reason;
  return change;
}

function toUpdateResult(result: CommitResult): UpdateResult {
  const { task } = result.after;
  return {
    taskId: task.id,
    status: result.after.status,
    updatedAt: task.updatedAt,
    bodyUpdated: result.before.body.trimEnd() !== result.after.body.trimEnd(),
    transitioned: result.transitioned,
  };
}
