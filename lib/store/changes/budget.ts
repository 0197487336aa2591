import { SvcError } from '../../core/errors.js';
import type { BudgetFigures, EventInput } from '../../core/events.js';
import { totalTokens } from '../../core/usage.js';
import type { Store } from '../commit/store.js';
import type { StoredTask } from '../disk/task-file.js';
import {
  type BudgetWait,
  describeSpent,
  formatSpent,
  type TaskBudget,
  toBudgetWait,
  toRecordedUsage,
  toTaskBudget,
} from '../disk/budget.js';

/** What `pauseForBudget` needs: the run's task and lease session, and the budget spent. */
export interface BudgetPause {
  taskId: string;
  sessionId: string;
  figures: BudgetFigures;
}

/** What `approveBudget` needs: who approves, and the task's budget raised, if it is. */
export interface BudgetApproval {
  actor: string;
  /** The task's own budget raised to these amounts (kept for the task's later runs). */
  raise?: TaskBudget | undefined;
}

/**
 * Pauses a task whose budget a run has spent: if it is still in progress under `sessionId`, it moves to blocked with
 * `metadata.awaiting = {kind: 'budget', scope, id, limit, spent, unit, since}` (the lease cleared as any block
 * clears it), events `budget.exceeded` and `task.blocked`. Returns the task after, or null when the run no longer
 * held it (nothing changed). Never a failed dispatch: the run's end then finds the task no longer in progress.
 */
export async function pauseForBudget(store: Store, pause: BudgetPause): Promise<StoredTask | null> {
  const { taskId, sessionId, figures } = pause;
  const reason = `budget spent: ${describeSpent(figures)}`;
  const result = await store.commit(
    taskId,
    (current) => {
      if (current.status !== 'in-progress' || current.task.lease?.sessionId !== sessionId) return null;
      const awaiting: BudgetWait = { kind: 'budget', ...figures, since: store.clock().toISOString() };
      const metadata = { ...current.task.metadata, awaiting, blockReason: reason, blockedFrom: 'in-progress' };
      return {
        task: { ...current.task, metadata },
        body: current.body,
        status: 'blocked',
        reason,
        events: [
          { type: 'budget.exceeded', taskId, actor: SYSTEM, payload: figures },
          { type: 'task.blocked', taskId, actor: SYSTEM, payload: { reason } },
        ],
      };
    },
    SYSTEM,
  );
  return result.changed ? result.after : null;
}

/**
 * Sends a task paused for its budget back to ready, clearing `awaiting` (events `task.updated` when the budget is
 * raised, `task.unblocked`). A task budget must then cover what the task's runs have used (`metadata.usage`), else a
 * `validation_error` says how much to raise it. An agent's or team's budget is the org chart's: the caller checks it
 * before. A task that does not wait for a budget is refused.
 */
export async function approveBudget(store: Store, arg: string, approval: BudgetApproval): Promise<StoredTask> {
  const result = await store.commit(
    arg,
    (current) => {
      const wait = toBudgetWait(current.task.metadata);
      if (!wait || current.status !== 'blocked') throw notWaiting(current);
      const budget = { ...toTaskBudget(current.task.metadata), ...approval.raise };
      assertCovers(current, budget);
      const { awaiting: _wait, blockReason: _reason, blockedFrom: _from, ...rest } = current.task.metadata;
      const metadata = approval.raise ? { ...rest, budget } : rest;
      const id = current.task.id;
      const events: EventInput[] = [{ type: 'task.unblocked', taskId: id, actor: approval.actor, payload: {} }];
      if (approval.raise)
        events.unshift({ type: 'task.updated', taskId: id, actor: approval.actor, payload: { fields: ['budget'] } });
      return {
        task: { ...current.task, metadata },
        body: current.body,
        status: 'ready',
        reason: `budget approved by ${approval.actor}`,
        events,
      };
    },
    approval.actor,
  );
  return result.after;
}

// --- internal ---

const SYSTEM = 'system';

function notWaiting(current: StoredTask): SvcError {
  return new SvcError(
    'invalid_transition',
    `${current.task.id} is in ${current.status} and does not wait for a budget: there is no budget to approve.`,
    'List the tasks that wait, for an approval gate or a budget, with `svc task list --awaiting`.',
  );
}

/** Refuses a task budget that what the task's runs used already reaches. */
function assertCovers(current: StoredTask, budget: TaskBudget): void {
  const used = toRecordedUsage(current.task.metadata);
  const id = current.task.id;
  const over: string[] = [];
  if (budget.usd !== undefined && (used.costUsd ?? 0) >= budget.usd)
    over.push(`${formatSpent({ unit: 'usd', spent: used.costUsd ?? 0, limit: budget.usd })} (--budget-usd)`);
  if (budget.tokens !== undefined && totalTokens(used) >= budget.tokens)
    over.push(`${formatSpent({ unit: 'tokens', spent: totalTokens(used), limit: budget.tokens })} (--budget-tokens)`);
  if (!over.length) return;
  throw new SvcError(
    'validation_error',
    `${id} has used ${over.join(' and ')} of its budget: approving now would pause it again at once.`,
    `Raise it above what is used: svc task approve ${id} --budget-usd <more> and/or --budget-tokens <more>.`,
  );
}
