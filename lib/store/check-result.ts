import type { Status } from '../core/status.js';
import { CHECK_AGENT } from '../core/spawn.js';
import { toPendingCheck, type PendingCheck } from './checking.js';
import { toCompletionChange, type GateFlow } from './complete.js';
import type { Change } from './commit.js';
import type { Store } from './store.js';
import type { StoredTask } from './task-file.js';

/** How one check ended. */
export interface CheckOutcome {
  name: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** The last 4 KiB of its output (or why it could not run). */
  tail: string;
  /** Its run log. */
  log?: string | undefined;
}

/** The end of a task's checks: all passed, or the first that failed. */
export type ChecksEnd = { passed: true; checks: CheckOutcome[]; durationMs: number } | { passed: false; failed: CheckOutcome; maxFailures: number };

/**
 * Applies the end of a task's checks under the daemon's lease `sessionId` (docs/workspaces.md).
 * Passed: the held completion goes through (next gate, or done), event `task.verified`. Failed:
 * back to ready at the same gate with `## Check failed` and the output's tail in the body,
 * `metadata.lastCheck`, event `task.check_failed`; `blocked` after `maxFailures` in a row.
 * Returns the status written, or null when the lease is no longer the daemon's (cancelled meanwhile).
 */
export async function finishChecks(store: Store, taskId: string, sessionId: string, end: ChecksEnd, flow: GateFlow | null): Promise<Status | null> {
  const result = await store.commit(taskId, (current) => {
    if (current.status !== 'in-progress' || current.task.lease?.agent !== CHECK_AGENT || current.task.lease.sessionId !== sessionId) return null;
    const pending = toPendingCheck(current.task);
    if (!pending) return null;
    return end.passed ? toPassed(current, pending, end, flow, store.clock()) : toFailed(current, pending, end, store.clock());
  }, CHECK_AGENT);
  return result.changed ? result.after.status : null;
}

// --- internal ---

function withoutPending(current: StoredTask, extra: Record<string, unknown>, keepFailures: boolean): StoredTask {
  const { pendingCheck: _pending, checkFailures, ...rest } = current.task.metadata;
  const metadata = { ...rest, ...(keepFailures && checkFailures !== undefined ? { checkFailures } : {}), ...extra };
  return { ...current, task: { ...current.task, metadata } };
}

function toPassed(current: StoredTask, pending: PendingCheck, end: Extract<ChecksEnd, { passed: true }>, flow: GateFlow | null, now: Date): Change {
  const last = end.checks[end.checks.length - 1];
  const lastCheck = last ? { name: last.name, exitCode: last.exitCode, timedOut: false, at: now.toISOString() } : undefined;
  const cleared = withoutPending(current, lastCheck ? { lastCheck } : {}, false);
  const change = toCompletionChange(cleared, { ...pending.input }, flow, now);
  change.events = [{ type: 'task.verified', taskId: current.task.id, actor: CHECK_AGENT, payload: { checks: pending.checks, durationMs: end.durationMs, ...(pending.gate ? { gate: pending.gate } : {}) } }, ...(change.events ?? [])];
  return change;
}

function toFailed(current: StoredTask, pending: PendingCheck, end: Extract<ChecksEnd, { passed: false }>, now: Date): Change {
  const { failed, maxFailures } = end;
  const failures = Number(current.task.metadata.checkFailures ?? 0) + 1;
  const at = now.toISOString();
  const lastCheck = { name: failed.name, exitCode: failed.exitCode, timedOut: failed.timedOut, at };
  const cleared = withoutPending(current, { lastCheck, checkFailures: failures }, false);
  const how = failed.timedOut ? 'timed out' : failed.signal ? `killed by ${failed.signal}` : failed.exitCode === null ? 'could not run' : `exit code ${failed.exitCode}`;
  const fence = toFence(failed.tail);
  const section = `## Check failed: ${failed.name} (${at})\n\n${how}${failed.log ? `; full output in ${failed.log}` : ''}. Last lines of its output:\n\n${fence}\n${failed.tail.trimEnd()}\n${fence}\n`;
  const status: Status = failures >= maxFailures ? 'blocked' : 'ready';
  const reason = status === 'blocked' ? `check ${failed.name} failed ${failures} times in a row (maxCheckFailures ${maxFailures})` : `check ${failed.name} failed (${how}): back to ${pending.gate ? `gate ${pending.gate}` : 'ready'}`;
  return {
    task: cleared.task, body: `${current.body.trimEnd()}\n\n${section}`, status, reason,
    events: [{ type: 'task.check_failed', taskId: current.task.id, actor: CHECK_AGENT, payload: { ...lastCheck, signal: failed.signal, durationMs: failed.durationMs, failures, ...(pending.gate ? { gate: pending.gate } : {}), ...(failed.log ? { log: failed.log } : {}), to: status } }],
  };
}

/** A code fence longer than any run of backticks in the text, so the output cannot close it. */
function toFence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}
