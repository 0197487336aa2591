import { SvcError } from '../../core/errors.js';
import { isTerminal, type Status } from '../../core/status.js';
import type { Task } from '../../core/task.js';
import type { Change } from '../commit/protocol.js';
import { describeSpent, toBudgetWait } from '../disk/budget.js';
import type { StoredTask } from '../disk/task-file.js';

/** Where a task waits for a person: the approval gate and since when (`metadata.awaiting`). */
export interface Awaiting {
  gate: string;
  since: string;
}

/** What an approval or a rejection did: `changed: false` when it had been done already (a no-op). */
export interface DecisionResult {
  taskId: string;
  gate: string;
  decision: 'approved' | 'rejected';
  status: Status;
  /** The gate the task is at now (null once done). */
  at: string | null;
  changed: boolean;
  message: string;
}

/**
 * The approval a task waits for (`metadata.awaiting`), or null. It belongs to the task's gate, not
 * its directory: a waiting task moved by hand out of `blocked/` still waits; a done or cancelled one does not.
 */
export function toAwaiting(stored: { status: Status; task: Task }): Awaiting | null {
  const value = stored.task.metadata.awaiting as Partial<Awaiting> | undefined;
  if (isTerminal(stored.status) || !value || typeof value.gate !== 'string' || typeof value.since !== 'string')
    return null;
  return { gate: value.gate, since: value.since };
}

/** Refuses to move a task waiting for approval or for a budget other than by `approve`, `reject`, cancel or close. */
export function assertNotAwaiting(current: StoredTask, verb: string): void {
  assertNoBudgetWait(current, verb);
  const awaiting = toAwaiting(current);
  if (!awaiting) return;
  const id = current.task.id;
  throw new SvcError(
    'invalid_transition',
    `${id} waits for approval at gate \`${awaiting.gate}\` (since ${awaiting.since}): it cannot be ${verb}.`,
    `Approve it with \`svc task approve ${id} --gate ${awaiting.gate} [--note ...]\`, or send ` +
      `it back with \`svc task reject ${id} --gate ${awaiting.gate} --note "what must change"\`.`,
  );
}

/** Refuses to move a task paused for a budget other than by `approve`, cancel or close. */
function assertNoBudgetWait(current: StoredTask, verb: string): void {
  const wait = isTerminal(current.status) ? null : toBudgetWait(current.task.metadata);
  if (!wait) return;
  const id = current.task.id;
  throw new SvcError(
    'invalid_transition',
    `${id} waits for a budget since ${wait.since} (${describeSpent(wait)}): it cannot be ${verb}.`,
    wait.scope === 'task'
      ? `Raise its budget with \`svc task approve ${id} --budget-${wait.unit} <more>\`, or \`svc task cancel ${id}\`.`
      : `Raise the budget in the org chart or wait for the next period, then \`svc task approve ${id}\`; ` +
          `or \`svc task cancel ${id}\`.`,
  );
}

/** The metadata and event of a task arriving at an approval gate: blocked, awaiting a person. */
export function toAwaitingArrival(
  task: Task,
  gate: string,
  { now, actor }: { now: Date; actor: string },
): { metadata: Record<string, unknown>; event: NonNullable<Change['events']>[number] } {
  const awaiting: Awaiting = { gate, since: now.toISOString() };
  const metadata = { ...task.metadata, awaiting, blockReason: `awaiting approval at gate ${gate}` };
  return {
    metadata,
    event: { type: 'gate.awaiting', taskId: task.id, actor, payload: { workflow: task.gate?.workflow ?? null, gate } },
  };
}
