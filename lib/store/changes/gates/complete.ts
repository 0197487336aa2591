import { SvcError } from '../../../core/errors.js';
import type { EventInput, EventPayloads } from '../../../core/events.js';
import type { Status } from '../../../core/status.js';
import { assertNoNul, type Task } from '../../../core/task.js';
import { toAwaitingArrival } from '../approval.js';
import type { Change, CommitResult } from '../../commit/protocol.js';
import { assertLeaseAllows } from '../lease.js';
import type { CompleteInput, GateFlow, WithFlows } from './gate-flow.js';
import type { Store } from '../../commit/store.js';
import type { StoredTask } from '../../disk/task-file.js';
import { toCheckingChange, toDueChecks } from './checking.js';

export { OUTCOMES, type CompleteInput, type Outcome } from './gate-flow.js';
export type { GateFlow, GateHolders, WithFlows } from './gate-flow.js';

/**
 * Completes a task, or moves a gated task through its workflow (docs/architecture.md, "Workflows"),
 * under the lease rule. `loadFlow` resolves `routing.workflow` to its definition.
 */
export async function completeTask(
  store: Store,
  arg: string,
  options: CompleteInput & WithFlows,
): Promise<CommitResult> {
  const { loadFlow, ...input } = options;
  assertNoNul('Summary', input.summary); // both go into the body
  for (const blocker of input.blockers ?? []) assertNoNul('Blocker', blocker);
  const peek = await store.get(arg);
  const flow = peek.task.routing.workflow ? await loadFlow(peek.task.routing.workflow) : null;
  return store.commit(
    peek.task.id,
    (current) => {
      assertOutcome(current, input, flow); // the teaching errors first: they hold whoever calls
      assertLeaseAllows(current, store.clock(), input);
      if (current.status !== 'in-progress') {
        throw new SvcError(
          'invalid_transition',
          `${current.task.id} is in ${current.status}, not in-progress: only a task being worked on can be completed.`,
          current.status === 'done'
            ? 'It is already done.'
            : 'Claim or dispatch it first, or close it with `svc task close`.',
        );
      }
      const checks = toDueChecks(current.task, input, flow);
      if (checks.length) return toCheckingChange(current, { input, checks }, store);
      return toCompletionChange(current, input, { flow, now: store.clock() });
    },
    input.actor,
  );
}

/** The change a completion makes once nothing holds it back (its checks passed, or it has none). */
export function toCompletionChange(
  current: StoredTask,
  input: CompleteInput,
  { flow, now }: { flow: GateFlow | null; now: Date },
): Change {
  return flow ? toGateChange(current, input, { flow, now }) : toPlainChange(current, input);
}

// --- internal ---

function assertOutcome(current: StoredTask, input: CompleteInput, flow: GateFlow | null): void {
  const id = current.task.id;
  const at = flow && currentGate(current.task, flow);
  if (at?.approval) {
    throw new SvcError(
      'forbidden_role',
      `${id} is at gate \`${at.id}\`, an approval gate: a person approves it, not svc_task_complete.`,
      `An operator runs \`svc task approve ${id}\` or \`svc task reject ${id} --note ...\`.`,
    );
  }
  if (flow && !input.outcome) {
    const gate = currentGate(current.task, flow);
    throw new SvcError(
      'outcome_required',
      `${id} is in a DAG workflow (${flow.name}, current hop: gate \`${gate.id}\`, ` +
        `role \`${gate.role}\`): svc_task_complete needs \`outcome\`. ` +
        `Call svc_task_complete({ taskId: "${id}", outcome: "complete" | "needs_review" | "blocked" }).`,
      '"complete" advances to the next gate (or done at the last); "needs_review" ' +
        'returns to the first gate and "blocked" holds at this gate, both with `blockers`.',
    );
  }
  if ((input.outcome === 'needs_review' || input.outcome === 'blocked') && !input.blockers?.length) {
    throw new SvcError(
      'blockers_required',
      `${id}: outcome \`${input.outcome}\` needs \`blockers\`, the list of what must change.`,
      `Call svc_task_complete({ taskId: "${id}", outcome: ` +
        `"${input.outcome}", blockers: ["what is wrong or missing"] }).`,
    );
  }
  if (flow && input.callerRole) {
    const gate = currentGate(current.task, flow);
    if (input.callerRole !== gate.role) {
      throw new SvcError(
        'forbidden_role',
        `${id} is at gate \`${gate.id}\`, which role \`${gate.role}\` ` +
          `completes; the caller declared role \`${input.callerRole}\`.`,
        `Only an agent in role ${gate.role} can complete this gate.`,
      );
    }
  }
  if (flow && !input.callerRole && isAgent(flow, input.actor)) assertActorHoldsRole(current.task, input.actor, flow);
}

/** Without `callerRole`, an actor that is an agent of the org chart must hold the gate's role itself. */
function assertActorHoldsRole(task: Task, actor: string, flow: GateFlow): void {
  const found = currentGate(task, flow);
  // an approval gate (no role) never gets here: assertOutcome refuses it first
  const gate = { ...found, role: found.role ?? '' };
  const roles = flow.holders?.roles ?? {};
  if (Object.hasOwn(roles, gate.role) && roles[gate.role]!.includes(actor)) return;
  const held = Object.keys(roles).filter((role) => roles[role]!.includes(actor));
  const holders = Object.hasOwn(roles, gate.role) ? roles[gate.role]! : [];
  throw new SvcError(
    'forbidden_role',
    `${task.id} is at gate \`${gate.id}\`, which role \`${gate.role}\` completes; agent \`${actor}\` holds ` +
      `${held.length ? `role ${held.map((r) => `\`${r}\``).join(', ')}` : 'no role'} in the org chart.`,
    `Only an agent in role ${gate.role} (${holders.length ? holders.join(', ') : 'none listed'}) can ` +
      `complete this gate; add ${actor} to roles.${gate.role}.agents in org/org-chart.yaml if it should.`,
  );
}

/**
 * True when `actor` is an agent id of the org chart; other actors (an operator) are not checked against roles, and the
 * gate event says so.
 */
function isAgent(flow: GateFlow, actor: string): boolean {
  return flow.holders?.agents.includes(actor) ?? false;
}

function currentGate(task: Task, flow: GateFlow) {
  const id = task.gate?.current ?? flow.gates[0]?.id;
  const gate = flow.gates.find((g) => g.id === id) ?? flow.gates[0];
  if (!gate)
    throw new SvcError(
      'validation_error',
      `Workflow ${flow.name} has no gates.`,
      'Add at least one gate to the workflow.',
    );
  return gate;
}

function toPlainChange(current: StoredTask, input: CompleteInput): Change {
  const status: Status = input.outcome === 'blocked' ? 'blocked' : input.outcome === 'needs_review' ? 'ready' : 'done';
  return withSummary(current, input, { status, task: { ...current.task } });
}

function toGateChange(current: StoredTask, input: CompleteInput, { flow, now }: { flow: GateFlow; now: Date }): Change {
  const gate = currentGate(current.task, flow);
  const index = flow.gates.indexOf(gate);
  const entry: Record<string, unknown> = {
    gate: gate.id,
    outcome: input.outcome,
    actor: input.actor,
    at: now.toISOString(),
  };
  if (input.summary) entry.summary = input.summary;
  if (input.blockers?.length) entry.blockers = input.blockers;
  const history = [...(current.task.gate?.history ?? []), entry];
  let next = gate.id;
  let status: Status = 'blocked';
  if (input.outcome === 'complete') {
    const following = flow.gates[index + 1];
    next = following?.id ?? gate.id;
    status = following ? 'ready' : 'done';
  } else if (input.outcome === 'needs_review') {
    if (gate.canReject === false)
      throw new SvcError(
        'validation_error',
        `Gate \`${gate.id}\` of ${current.task.id} cannot reject (canReject: false).`,
        'Use outcome "complete" or "blocked".',
      );
    next = flow.gates[0]!.id;
    status = 'ready';
  }
  let task: Task = { ...current.task, gate: { workflow: flow.name, current: next, history } };
  // The next gate is a person's: the task waits there, blocked, instead of going to ready (docs/approvals-and-logs.md).
  const arrival =
    status === 'ready' && flow.gates.find((g) => g.id === next)?.approval
      ? toAwaitingArrival(task, next, { now, actor: input.actor })
      : null;
  if (arrival) {
    task = { ...task, metadata: arrival.metadata };
    status = 'blocked';
  }
  const change = withSummary(current, input, { status, task });
  const payload: EventPayloads['gate.transition'] = {
    workflow: flow.name,
    from: gate.id,
    to: status === 'done' ? null : next,
    outcome: input.outcome,
  };
  if (!input.callerRole && !isAgent(flow, input.actor))
    payload.roleNotChecked = `actor ${input.actor} is not an agent of the org chart and declared no callerRole`;
  change.events!.push({ type: 'gate.transition', taskId: task.id, actor: input.actor, payload });
  if (arrival) change.events!.push(arrival.event);
  return change;
}

/** The completion's end: the status it moves to and the task as it is written. */
function withSummary(
  current: StoredTask,
  input: CompleteInput,
  { status, task }: { status: Status; task: Task },
): Change {
  let body = current.body;
  if (
    task.metadata.dispatchFailures !== undefined ||
    task.metadata.lastFailureReason !== undefined ||
    task.metadata.nextAttemptAt !== undefined
  ) {
    const { dispatchFailures: _failures, lastFailureReason: _reason, nextAttemptAt: _next, ...rest } = task.metadata;
    task.metadata = rest; // a completed attempt ends the run of consecutive failures
  }
  if (input.summary) {
    task.metadata = { ...task.metadata, completionSummary: input.summary };
    body = `${body.trimEnd()}\n\n## Completion summary\n\n${input.summary.trim()}\n`;
  }
  if (input.blockers?.length)
    body = `${body.trimEnd()}\n\n## Blockers (${input.outcome})\n\n${input.blockers.map((b) => `- ${b}`).join('\n')}\n`;
  const payload: EventPayloads['task.completed'] = {};
  if (input.outcome) payload.outcome = input.outcome;
  if (input.summary) payload.summary = input.summary;
  const events: EventInput[] =
    status === 'done' ? [{ type: 'task.completed', taskId: task.id, actor: input.actor, payload }] : [];
  return { task, body: body.replace(/^\n+/, ''), status, events, reason: input.outcome ?? 'complete' };
}
