import type { RuntimeHooks } from '../../adapters/runtime-hooks.js';
import { followAdoptedRun } from '../../adapters/runtime-follow.js';
import { createBudgetGuard } from '../../engine/budgets/guard.js';
import type { SpendLedger } from '../../store/events/spend.js';
import { settleRuntimeRuns } from '../../adapters/runtime-record.js';
import type { StreamWatch } from '../../adapters/stream-watch.js';
import { toDaemonSettings } from '../../org/org-chart.js';
import type { Run, RunRegistry } from '../../adapters/runs.js';
import { describeError } from '../../core/errors.js';
import { NO_USAGE } from '../../core/usage.js';
import { priceUsage } from '../../org/pricing.js';
import type { OrgChart } from '../../org/schema.js';
import { recordRunUsage } from '../../store/changes/usage.js';
import type { Store } from '../../store/commit/store.js';

/** What the runs of agent CLIs need from the daemon or `svc scheduler run --active`. */
export interface RuntimeWiringOptions {
  store: Store;
  org: () => OrgChart | null;
  log: (line: string) => void;
  /**
   * The budgets the runs are held to (docs/agent-runtimes.md, "Budgets"): the spend so far, and where the alert of a
   * budget spent goes. Without it, runs are not stopped for their budgets.
   */
  budgets?: { ledger: SpendLedger; alert: (text: string) => void };
  /** Tasks whose files changed (the index). */
  onCommitted?: (ids: readonly string[]) => void | Promise<void>;
}

/** The hooks of the agent CLIs' runs, and the settling of the runs that ended while no daemon watched them. */
export interface RuntimeWiring {
  hooks: RuntimeHooks;
  /**
   * Records the runs under `data/runtimes/` not among the registry's (their processes are gone), and follows the
   * adopted ones (their log, their idle timeout: one idle past it is ended as a cancel ends a run).
   */
  settle(runs: Pick<RunRegistry, 'all' | 'end'>): Promise<void>;
}

/**
 * Prices each run by `aof.pricing` (docs/agent-runtimes.md, "Usage and cost"), records its usage and CLI session on
 * the task once (`recordRunUsage`), and holds the runs to their budgets (the guard: a warning at 80 %, the task
 * paused and the run ended at 100 %).
 */
export function createRuntimeWiring(options: RuntimeWiringOptions): RuntimeWiring {
  const { store, log } = options;
  const guard = options.budgets
    ? createBudgetGuard({ store, org: options.org, log, now: store.clock, ...options.budgets })
    : null;
  const hooks: RuntimeHooks = {
    price: (usage, model) => priceUsage(usage, model, options.org()?.aof.pricing ?? {}),
    ...(guard ? { onUsage: (run, usage) => guard.onRunUsage({ ...run, runKey: run.run }, usage) } : {}),
    onRecord: async (record) => {
      const usage = record.usage ?? { ...NO_USAGE };
      try {
        if (await recordRunUsage(store, { ...record, usage })) await options.onCommitted?.([record.taskId]);
      } catch (err) {
        log(`recording the usage of ${record.taskId}'s run ${record.run} failed: ${describeError(err)}`);
      } finally {
        guard?.onRunEnd({ ...record, runKey: record.run });
      }
    },
  };
  const followed = new Map<string, StreamWatch>();
  return {
    hooks,
    settle: async (runs) => {
      const live = runs.all();
      const names = new Set(live.map((run) => `${run.taskId}@${run.sessionId}`));
      followAdopted(followed, { live, names, dir: store.paths.runtimes, options, price: hooks.price, runs });
      const settled = await settleRuntimeRuns(store.paths.runtimes, { live: names, hooks });
      if (settled)
        log(`recorded the usage of ${settled} agent CLI run${settled === 1 ? '' : 's'} that ended meanwhile`);
    },
  };
}

// --- internal ---

/**
 * Follows the runs of agent CLIs an earlier daemon started and this one adopted (their log, their idle timeout),
 * and stops following those gone. A run idle past its timeout is ended as a cancel ends one (SIGTERM, then SIGKILL
 * after the grace; its task then goes back to ready).
 */
function followAdopted(
  followed: Map<string, StreamWatch>,
  at: {
    live: readonly Run[];
    names: ReadonlySet<string>;
    dir: string;
    options: RuntimeWiringOptions;
    price: RuntimeHooks['price'];
    runs: Pick<RunRegistry, 'end'>;
  },
): void {
  for (const [name, watch] of followed)
    if (!at.names.has(name)) {
      watch.stop();
      followed.delete(name);
    }
  for (const run of at.live) {
    const name = `${run.taskId}@${run.sessionId}`;
    if (!run.adopted || followed.has(name)) continue;
    const watch = followAdoptedRun(run, {
      dir: at.dir,
      ...(at.price ? { price: at.price } : {}),
      idleMs: (agent) => {
        const org = at.options.org();
        return org?.agents.find((a) => a.id === agent)?.runIdleTimeoutMs ?? toDaemonSettings(org).runIdleTimeoutMs;
      },
      onIdle: (idle, ms) => {
        at.options.log(`${idle.taskId}: its agent CLI run gave no output for ${Math.round(ms / 1000)} s; ending it`);
        // SIGTERM to its group, SIGKILL after agentStopGraceMs: the other runs of the task are spared
        at.runs.end(idle.taskId, { spare: (other) => other.sessionId !== idle.sessionId });
      },
    });
    if (watch) followed.set(name, watch);
  }
}
