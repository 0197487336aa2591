import type { Status } from '../../../core/status.js';
import { toStorableText } from '../../../core/text.js';
import { CHECK_AGENT } from '../../../core/spawn.js';
import { toPendingCheck, type ChecksSession, type PendingCheck } from './checking.js';
import { toCompletionChange, type GateFlow } from './complete.js';
import type { Change } from '../../commit/protocol.js';
import type { Store } from '../../commit/store.js';
import type { StoredTask } from '../../disk/task-file.js';

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
export type ChecksEnd =
  | { passed: true; checks: CheckOutcome[]; durationMs: number }
  | { passed: false; failed: CheckOutcome; maxFailures: number };

/**
 * Applies the end of a task's checks under the daemon's lease `sessionId` (docs/workspaces.md).
 * Passed: the held completion goes through (next gate, or done), event `task.verified`. Failed:
 * back to ready at the same gate with `## Check failed` and the output's tail in the body (the
 * last `KEPT_FAILURES` such sections kept, a NUL escaped), `metadata.lastCheck`, event
 * `task.check_failed`; `blocked` after `maxFailures` in a row.
 * Returns the status written, or null when the lease is no longer the daemon's (cancelled meanwhile).
 */
export async function finishChecks(
  store: Store,
  { taskId, sessionId }: ChecksSession,
  { end, flow }: { end: ChecksEnd; flow: GateFlow | null },
): Promise<Status | null> {
  const result = await store.commit(
    taskId,
    (current) => {
      if (
        current.status !== 'in-progress' ||
        current.task.lease?.agent !== CHECK_AGENT ||
        current.task.lease.sessionId !== sessionId
      )
        return null;
      const pending = toPendingCheck(current.task);
      if (!pending) return null;
      return end.passed
        ? toPassed(current, pending, { end, flow, now: store.clock() })
        : toFailed(current, pending, { end, now: store.clock() });
    },
    CHECK_AGENT,
  );
  return result.changed ? result.after.status : null;
}

// --- internal ---

function withoutPending(
  current: StoredTask,
  extra: Record<string, unknown>,
  { keepFailures }: { keepFailures: boolean },
): StoredTask {
  const { pendingCheck: _pending, checkFailures, ...rest } = current.task.metadata;
  const metadata = { ...rest, ...(keepFailures && checkFailures !== undefined ? { checkFailures } : {}), ...extra };
  return { ...current, task: { ...current.task, metadata } };
}

function toPassed(
  current: StoredTask,
  pending: PendingCheck,
  { end, flow, now }: { end: Extract<ChecksEnd, { passed: true }>; flow: GateFlow | null; now: Date },
): Change {
  const last = end.checks[end.checks.length - 1];
  const lastCheck = last
    ? { name: last.name, exitCode: last.exitCode, timedOut: false, at: now.toISOString() }
    : undefined;
  const cleared = withoutPending(current, lastCheck ? { lastCheck } : {}, { keepFailures: false });
  const change = toCompletionChange(cleared, { ...pending.input }, { flow, now });
  change.events = [
    {
      type: 'task.verified',
      taskId: current.task.id,
      actor: CHECK_AGENT,
      payload: { checks: pending.checks, durationMs: end.durationMs, ...(pending.gate ? { gate: pending.gate } : {}) },
    },
    ...(change.events ?? []),
  ];
  return change;
}

function toFailed(
  current: StoredTask,
  pending: PendingCheck,
  { end, now }: { end: Extract<ChecksEnd, { passed: false }>; now: Date },
): Change {
  const { failed, maxFailures } = end;
  const failures = Number(current.task.metadata.checkFailures ?? 0) + 1;
  const at = now.toISOString();
  const lastCheck = { name: failed.name, exitCode: failed.exitCode, timedOut: failed.timedOut, at };
  const cleared = withoutPending(current, { lastCheck, checkFailures: failures }, { keepFailures: false });
  const how = failed.timedOut
    ? 'timed out'
    : failed.signal
      ? `killed by ${failed.signal}`
      : failed.exitCode === null
        ? 'could not run'
        : `exit code ${failed.exitCode}`;
  const tail = toStorableText(failed.tail);
  const fence = toFence(tail);
  const section =
    `## Check failed: ${failed.name} (${at})\n\n${how}${failed.log ? `; full output in ${failed.log}` : ''}. ` +
    `Last lines of its output:\n\n${fence}\n${tail.trimEnd()}\n${fence}\n`;
  const status: Status = failures >= maxFailures ? 'blocked' : 'ready';
  const reason =
    status === 'blocked'
      ? `check ${failed.name} failed ${failures} times in a row (maxCheckFailures ${maxFailures})`
      : `check ${failed.name} failed (${how}): back to ${pending.gate ? `gate ${pending.gate}` : 'ready'}`;
  return {
    task: cleared.task,
    body: `${toEarlierKept(current.body).trimEnd()}\n\n${section}`,
    status,
    reason,
    events: [
      {
        type: 'task.check_failed',
        taskId: current.task.id,
        actor: CHECK_AGENT,
        payload: {
          ...lastCheck,
          signal: failed.signal,
          durationMs: failed.durationMs,
          failures,
          ...(pending.gate ? { gate: pending.gate } : {}),
          ...(failed.log ? { log: failed.log } : {}),
          to: status,
        },
      },
    ],
  };
}

/** How many `## Check failed` sections a body keeps: the newest; the run logs and events keep every failure. */
export const KEPT_FAILURES = 3;

/** The body with its oldest `## Check failed` sections removed, leaving room for one more within `KEPT_FAILURES`. */
function toEarlierKept(body: string): string {
  const sections = findFailureSections(body);
  let kept = body;
  for (const { start, end } of sections.slice(0, Math.max(0, sections.length - (KEPT_FAILURES - 1))).reverse()) {
    const before = kept.slice(0, start).trimEnd();
    const after = kept.slice(end).replace(/^\n+/, '');
    kept = before && after ? `${before}\n\n${after}` : before || after;
  }
  return kept;
}

/** Where each `## Check failed` section lies: its heading to its closing fence (the output inside cannot close it). */
function findFailureSections(body: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const match of body.matchAll(
    /^## Check failed: [^\n]* \(\d{4}-\d\d-\d\dT[^\n)]*\)\n\n[^\n]*Last lines of its output:\n\n(`{3,})\n/gm,
  )) {
    const start = match.index;
    if (found.length && start < found[found.length - 1]!.end) continue; // inside the previous section's output
    const close = body.indexOf(`\n${match[1]}\n`, start + match[0].length - 1);
    if (close < 0) continue;
    found.push({ start, end: close + match[1]!.length + 2 });
  }
  return found;
}

/** A code fence longer than any run of backticks in the text, so the output cannot close it. */
function toFence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}
