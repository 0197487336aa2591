import { describeError } from '../../core/errors.js';
import type { BudgetFigures } from '../../core/events.js';
import { roundUsd, totalTokens, type Usage } from '../../core/usage.js';
import type { OrgChart } from '../../org/schema.js';
import { pauseForBudget } from '../../store/changes/budget.js';
import type { Store } from '../../store/commit/store.js';
import { describeSpent, toRecordedUsage, toTaskBudget } from '../../store/disk/budget.js';
import { formatBudgetAlert } from './alert.js';
import type { SpendLedger } from '../../store/events/spend.js';
import { findBudgetLimits, toFigures } from '../../org/budget-limits.js';

/** A warning at this share of a budget. */
export const WARN_AT = 0.8;

/** What the guard is built from. */
export interface BudgetGuardOptions {
  store: Store;
  org: () => OrgChart | null;
  ledger: SpendLedger;
  /** Console alerts (`[AOF] BUDGET:`). */
  alert: (text: string) => void;
  log: (line: string) => void;
  now: () => Date;
}

/** One run the guard watches: its task and lease session, its agent, and a key unique among the runs under way. */
export interface GuardedRun {
  taskId: string;
  sessionId: string;
  agent: string;
  runKey: string;
}

/** The budget guard of the runs under way. */
export interface BudgetGuard {
  /**
   * Told the usage of `run` so far (priced; each call replaces the last), at each model response. Resolves `continue`,
   * or `stop` once a budget is spent: the task is then already blocked awaiting the budget (or no longer held by the
   * run), and the caller ends the run (SIGTERM to its process group). Calls of one run are taken in order.
   */
  onRunUsage(run: GuardedRun, usage: Readonly<Usage>): Promise<'continue' | 'stop'>;
  /** The run ended (after its `run.usage` is recorded): its live usage leaves the ledger, its warnings are dropped. */
  onRunEnd(run: GuardedRun): void;
}

/**
 * The guard of the runs' budgets (docs/agent-runtimes.md, "Budgets"). At each usage it compares the task's recorded
 * usage (`metadata.usage`) plus this run's with the task's budget (`metadata.budget`), and the spend of the run's
 * agent and of its teams (the ledger, this run included through `ledger.live`) with the org chart's budgets. At
 * `WARN_AT` of a budget it records `budget.warning` (once per budget per run); at 100 % it writes the pause first
 * (`pauseForBudget`: blocked, `budget.exceeded`), then alerts and resolves `stop`. It never fails a dispatch.
 */
export function createBudgetGuard(options: BudgetGuardOptions): BudgetGuard {
  const runs = new Map<string, { warned: Set<string>; stopped: boolean; turn: Promise<unknown> }>();
  const stateOf = (run: GuardedRun) => {
    const state = runs.get(run.runKey) ?? { warned: new Set<string>(), stopped: false, turn: Promise.resolve() };
    runs.set(run.runKey, state);
    return state;
  };

  async function check(run: GuardedRun, usage: Readonly<Usage>): Promise<'continue' | 'stop'> {
    const state = stateOf(run);
    if (state.stopped) return 'stop';
    options.ledger.live(run.runKey, run.agent, usage);
    const all = [...(await taskFigures(options.store, run, usage)), ...agentFigures(options, run)];
    const spent = all.find((f) => f.spent >= f.limit);
    if (spent) {
      const paused = await pauseForBudget(options.store, {
        taskId: run.taskId,
        sessionId: run.sessionId,
        figures: spent,
      });
      state.stopped = true; // a pause that failed is tried again at the next usage
      if (paused) options.alert(formatBudgetAlert(paused.task, spent));
      options.log(
        `${run.taskId}: ${describeSpent(spent)}; ` +
          `${paused ? 'paused awaiting the budget' : 'the run no longer holds the task'}, ending the run`,
      );
      return 'stop';
    }
    const warnings = all.filter((f) => f.spent >= f.limit * WARN_AT && !state.warned.has(keyOf(f)));
    for (const f of warnings) state.warned.add(keyOf(f));
    if (warnings.length)
      await options.store.events.record(
        options.now(),
        warnings.map((payload) => ({ type: 'budget.warning', taskId: run.taskId, actor: 'system', payload })),
      );
    return 'continue';
  }

  return {
    onRunUsage(run, usage) {
      const state = stateOf(run);
      const next = state.turn.then(() => check(run, usage));
      state.turn = next.catch(() => undefined);
      return next.catch((err: unknown) => {
        options.log(`budget check of ${run.taskId} failed: ${describeError(err)}`);
        return 'continue' as const;
      });
    },
    onRunEnd(run) {
      options.ledger.live(run.runKey, run.agent, null);
      runs.delete(run.runKey);
    },
  };
}

// --- internal ---

/** The task's budget against what its earlier runs recorded plus this run so far. */
async function taskFigures(store: Store, run: GuardedRun, usage: Readonly<Usage>): Promise<BudgetFigures[]> {
  const { task } = await store.get(run.taskId);
  const budget = toTaskBudget(task.metadata);
  if (!budget) return [];
  const recorded = toRecordedUsage(task.metadata);
  const figures: BudgetFigures[] = [];
  const base = { scope: 'task', id: task.id } as const;
  if (budget.usd !== undefined)
    figures.push({
      ...base,
      unit: 'usd',
      limit: budget.usd,
      spent: roundUsd((recorded.costUsd ?? 0) + (usage.costUsd ?? 0)),
    });
  if (budget.tokens !== undefined)
    figures.push({ ...base, unit: 'tokens', limit: budget.tokens, spent: totalTokens(recorded) + totalTokens(usage) });
  return figures;
}

/** The budgets of the run's agent and its teams against their spend today or this month, runs under way included. */
function agentFigures(options: BudgetGuardOptions, run: GuardedRun): BudgetFigures[] {
  const now = options.now();
  return findBudgetLimits(options.org(), run.agent).map((limit) =>
    toFigures(limit, options.ledger.spentBy(limit.agents, limit.period, now)),
  );
}

function keyOf(f: BudgetFigures): string {
  return `${f.scope}:${f.id}:${f.unit}:${f.period ?? ''}`;
}
