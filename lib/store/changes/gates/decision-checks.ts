import { SvcError } from '../../../core/errors.js';
import type { Awaiting, DecisionResult } from '../approval.js';
import type { GateFlow } from './gate-flow.js';
import type { StoredTask } from '../../disk/task-file.js';

/** What a decision is checked against: where the task waits, its workflow, the gate the decision names. */
export interface DecisionCheck {
  awaiting: Awaiting | null;
  flow: GateFlow | null;
  gate: string | undefined;
  decision: DecisionResult['decision'];
}

/**
 * Refuses a decision that names no gate where the workflow has several approval gates (which one
 * it meant is not known), and one naming a gate that is not an approval gate of the workflow.
 */
export function assertDecidable(current: StoredTask, check: DecisionCheck): void {
  const { flow, gate, awaiting } = check;
  if (!flow) return;
  const approvals = flow.gates.filter((candidate) => candidate.approval).map((candidate) => candidate.id);
  const id = current.task.id;
  const verb = toVerb(check.decision);
  if (gate !== undefined && !approvals.includes(gate)) {
    throw new SvcError(
      'validation_error',
      `Workflow ${flow.name} has no approval gate \`${gate}\` (its approval gates: ${approvals.join(', ') || 'none'}).`,
      awaiting
        ? `${id} waits at gate \`${awaiting.gate}\`: svc task ${verb} ${id} --gate ${awaiting.gate}.`
        : 'List the tasks that wait, with their gates, with `svc task list --awaiting`.',
    );
  }
  if (gate !== undefined || approvals.length < 2) return;
  const where = awaiting
    ? `it waits at gate \`${awaiting.gate}\``
    : `it waits at no approval gate now (it is ` +
      `${current.status}${current.task.gate ? ` at gate ${current.task.gate.current}` : ''})`;
  throw new SvcError(
    'validation_error',
    `${id} is in workflow ${flow.name}, which has ${approvals.length} approval gates ` +
      `(${approvals.join(', ')}): a decision must name the gate it decides, and ${where}.`,
    `Name the gate: svc task ${verb} ${id} --gate ${awaiting?.gate ?? '<gate>'} (the tools: "gate": ` +
      `"${awaiting?.gate ?? '<gate>'}"); it is applied only while the task still waits there.`,
  );
}

/**
 * A decision for a gate the task does not wait at. The same decision already made there is a
 * no-op that says so (a double click, a retry); the other decision made there, a gate the task
 * never decided, or a task that waits nowhere, is refused.
 */
export function toRepeat(current: StoredTask, check: Omit<DecisionCheck, 'flow'>): DecisionResult {
  const { task, status } = current;
  const { decision, gate, awaiting } = check;
  const history = (task.gate?.history ?? []) as { gate?: string; outcome?: string; actor?: string; at?: string }[];
  const last =
    gate === undefined
      ? history.at(-1)
      : history.findLast(
          (entry) => entry.gate === gate && (entry.outcome === 'approved' || entry.outcome === 'rejected'),
        );
  const at = status === 'done' ? null : (task.gate?.current ?? null);
  const now = `it is ${status}${at ? ` at gate ${at}` : ''}`;
  if (last?.outcome === decision && typeof last.gate === 'string') {
    return {
      taskId: task.id,
      gate: last.gate,
      decision,
      status,
      at,
      changed: false,
      message:
        `${task.id} was already ${decision} at gate ${last.gate} by ${last.actor ?? 'someone'} ` +
        `at ${last.at ?? 'an earlier time'}; nothing changed (${now}).`,
    };
  }
  const next = awaiting
    ? `It waits at gate \`${awaiting.gate}\` now: svc task ${toVerb(decision)} ` +
      `${task.id} --gate ${awaiting.gate} decides that one.`
    : 'List the tasks that wait with `svc task list --awaiting`.';
  if (gate !== undefined && (last?.outcome === 'approved' || last?.outcome === 'rejected')) {
    throw new SvcError(
      'invalid_transition',
      `${task.id} was already ${last.outcome} at gate ${gate} by ${last.actor ?? 'someone'} at ` +
        `${last.at ?? 'an earlier time'} (${now}): this ` +
        `${decision === 'approved' ? 'approval' : 'rejection'} was not applied.`,
      next,
    );
  }
  if (gate !== undefined && awaiting) {
    throw new SvcError(
      'invalid_transition',
      `${task.id} waits at gate \`${awaiting.gate}\`, not \`${gate}\`: nothing was ${decision} at gate ${gate}.`,
      next,
    );
  }
  const where = task.gate ? ` at gate \`${task.gate.current}\` of workflow ${task.gate.workflow}` : '';
  throw new SvcError(
    'invalid_transition',
    `${task.id} is ${status}${where}, not waiting for approval: there is nothing to ${toVerb(decision)}.`,
    next,
  );
}

// --- internal ---

function toVerb(decision: DecisionResult['decision']): 'approve' | 'reject' {
  return decision === 'approved' ? 'approve' : 'reject';
}
