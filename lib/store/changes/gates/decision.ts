import { SvcError } from '../../../core/errors.js';
import type { Task } from '../../../core/task.js';
import { toAwaiting, toAwaitingArrival, type Awaiting, type DecisionResult } from '../approval.js';
import type { Change, CommitResult } from '../../commit/protocol.js';
import { assertDecidable, toRepeat } from './decision-checks.js';
import type { GateFlow, WithFlows } from './gate-flow.js';
import type { Store } from '../../commit/store.js';
import type { StoredTask } from '../../disk/task-file.js';

/** Who decides, with what note, at which gate. */
export interface DecisionInput {
  actor: string;
  note?: string | undefined;
  /**
   * The approval gate decided: applied only while the task still waits there (checked under the
   * task's lock). Required where the workflow has more than one approval gate.
   */
  gate?: string | undefined;
}

/**
 * Approves the gate a task waits at: on to the next gate (ready, or awaiting again at another
 * approval gate), or done after the last; `gate.approved {gate, by, note}` is logged.
 */
export function approveTask(store: Store, arg: string, input: DecisionInput & WithFlows): Promise<DecisionResult> {
  return decide(store, arg, { ...input, decision: 'approved' });
}

/**
 * Rejects the gate a task waits at: back to the workflow's origin gate, ready, with the note as its blockers
 * (`gate.rejected`).
 */
export function rejectTask(store: Store, arg: string, input: DecisionInput & WithFlows): Promise<DecisionResult> {
  if (!input.note?.trim())
    throw new SvcError(
      'validation_error',
      'A rejection needs a note: what must change.',
      'Pass --note "what must change" (the note becomes the blockers of the origin gate).',
    );
  return decide(store, arg, { ...input, decision: 'rejected' });
}

// --- internal ---

type Decision = DecisionResult['decision'];

/** The decision applied only if the task still waits at the gate it names (compare and swap under the task's lock). */
async function decide(
  store: Store,
  arg: string,
  options: DecisionInput & WithFlows & { decision: Decision },
): Promise<DecisionResult> {
  const { loadFlow, decision, ...input } = options;
  const peek = await store.get(arg);
  const name = peek.task.gate?.workflow ?? peek.task.routing.workflow;
  const flow = name ? await loadFlow(name) : null;
  let repeat: DecisionResult | null = null;
  const result: CommitResult = await store.commit(
    peek.task.id,
    (current) => {
      const awaiting = toAwaiting(current);
      assertDecidable(current, { awaiting, flow, gate: input.gate, decision });
      if (!awaiting || awaiting.gate !== (input.gate ?? awaiting.gate)) {
        repeat = toRepeat(current, { awaiting, gate: input.gate, decision });
        return null;
      }
      return toDecisionChange(current, input, { awaiting, decision, flow, now: store.clock() });
    },
    input.actor,
  );
  if (repeat) return repeat;
  const { task, status } = result.after;
  const last = task.gate!.history.at(-1) as { gate: string };
  const at = status === 'done' ? null : task.gate!.current;
  return {
    taskId: task.id,
    gate: last.gate,
    decision,
    status,
    at,
    changed: true,
    message: `${task.id} ${decision} at gate ${last.gate}: now ${status}${at ? ` at gate ${at}` : ''}`,
  };
}

/** Where the decision is made: the gate the task awaits, the decision, its workflow and the time. */
interface DecisionAt {
  awaiting: Awaiting;
  decision: Decision;
  flow: GateFlow | null;
  now: Date;
}

function toDecisionChange(
  current: StoredTask,
  input: DecisionInput,
  { awaiting, decision, flow, now }: DecisionAt,
): Change {
  const { task } = current;
  if (!flow || !task.gate)
    throw new SvcError(
      'validation_error',
      `${task.id} waits at gate \`${awaiting.gate}\` but has no workflow.`,
      'Cancel it or fix its `gate` field by hand.',
    );
  const index = flow.gates.findIndex((gate) => gate.id === awaiting.gate);
  if (index < 0)
    throw new SvcError(
      'validation_error',
      `Workflow ${flow.name} has no gate \`${awaiting.gate}\` any ` +
        `more (gates: ${flow.gates.map((g) => g.id).join(', ')}).`,
      'Restore the gate in the workflow file, or cancel the task.',
    );
  const note = input.note?.trim();
  const entry = {
    gate: awaiting.gate,
    outcome: decision,
    actor: input.actor,
    at: now.toISOString(),
    ...(note ? { note } : {}),
  };
  const { awaiting: _awaiting, blockReason: _reason, blockedFrom: _from, ...metadata } = task.metadata;
  const payload = { workflow: flow.name, gate: awaiting.gate, by: input.actor, note: note ?? null };
  if (decision === 'rejected') {
    const origin = flow.gates[0]!.id;
    const body =
      `${current.body.trimEnd()}\n\n## Blockers (rejected at ` +
      `gate ${awaiting.gate} by ${input.actor})\n\n- ${note}\n`;
    const next: Task = {
      ...task,
      metadata,
      gate: { ...task.gate, current: origin, history: [...task.gate.history, { ...entry, blockers: [note] }] },
    };
    return {
      task: next,
      body,
      status: 'ready',
      reason: `rejected at gate ${awaiting.gate}`,
      events: [{ type: 'gate.rejected', taskId: task.id, actor: input.actor, payload: { ...payload, to: origin } }],
    };
  }
  const following = flow.gates[index + 1];
  const next: Task = {
    ...task,
    metadata,
    gate: { ...task.gate, current: following?.id ?? awaiting.gate, history: [...task.gate.history, entry] },
  };
  const events: NonNullable<Change['events']> = [
    { type: 'gate.approved', taskId: task.id, actor: input.actor, payload: { ...payload, to: following?.id ?? null } },
  ];
  if (following?.approval) {
    const arrival = toAwaitingArrival(next, following.id, { now, actor: input.actor });
    return {
      task: { ...next, metadata: arrival.metadata },
      body: current.body,
      status: 'blocked',
      reason: `approved at gate ${awaiting.gate}`,
      events: [...events, arrival.event],
    };
  }
  if (!following)
    events.push({ type: 'task.completed', taskId: task.id, actor: input.actor, payload: { outcome: 'approved' } });
  return {
    task: next,
    body: current.body,
    status: following ? 'ready' : 'done',
    cause: following ? 'move' : 'close',
    reason: `approved at gate ${awaiting.gate}`,
    events,
  };
}
