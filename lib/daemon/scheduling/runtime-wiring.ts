import type { RuntimeHooks, RuntimeRunRecord } from '../../adapters/runtime-hooks.js';
import { followAdoptedRun } from '../../adapters/runtime-follow.js';
import { settleRuntimeRuns } from '../../adapters/runtime-record.js';
import { signalRun } from '../../adapters/run-processes.js';
import type { StreamWatch } from '../../adapters/stream-watch.js';
import { toDaemonSettings } from '../../org/org-chart.js';
import type { Run } from '../../adapters/runs.js';
import { describeError } from '../../core/errors.js';
import { NO_USAGE, type Usage } from '../../core/usage.js';
import { priceUsage } from '../../org/pricing.js';
import type { OrgChart } from '../../org/schema.js';
import { recordRunUsage } from '../../store/changes/usage.js';
import type { Store } from '../../store/commit/store.js';

/** What the runs of agent CLIs need from the daemon or `svc scheduler run --active`. */
export interface RuntimeWiringOptions {
  store: Store;
  org: () => OrgChart | null;
  log: (line: string) => void;
  /** The run's usage so far, priced: `'stop'` to end it (a budget spent, the task paused first). */
  onUsage?: RuntimeHooks['onUsage'];
  /** A run's usage was recorded (added to the task's total and the event log). */
  onRecorded?: (record: RuntimeRunRecord & { usage: Usage }) => void;
  /** Tasks whose files changed (the index). */
  onCommitted?: (ids: readonly string[]) => void | Promise<void>;
}

/** The hooks of the agent CLIs' runs, and the settling of the runs that ended while no daemon watched them. */
export interface RuntimeWiring {
  hooks: RuntimeHooks;
  /** Records the runs under `data/runtimes/` not among `live` (their processes are gone). */
  settle(live: readonly Run[]): Promise<void>;
}

/**
 * Prices each run by `aof.pricing` (docs/agent-runtimes.md, "Usage and cost"), records its usage and CLI session on
 * the task once (`recordRunUsage`), and hands live usage to the budget guard.
 */
export function createRuntimeWiring(options: RuntimeWiringOptions): RuntimeWiring {
  const { store, log } = options;
  const hooks: RuntimeHooks = {
    price: (usage, model) => priceUsage(usage, model, options.org()?.aof.pricing ?? {}),
    ...(options.onUsage ? { onUsage: options.onUsage } : {}),
    onRecord: async (record) => {
      const usage = record.usage ?? { ...NO_USAGE };
      try {
        const recorded = await recordRunUsage(store, { ...record, usage });
        if (!recorded) return;
        await options.onCommitted?.([record.taskId]);
        options.onRecorded?.({ ...record, usage });
      } catch (err) {
        log(`recording the usage of ${record.taskId}'s run ${record.run} failed: ${describeError(err)}`);
      }
    },
  };
  const followed = new Map<string, StreamWatch>();
  return {
    hooks,
    settle: async (live) => {
      const names = new Set(live.map((run) => `${run.taskId}@${run.sessionId}`));
      followAdopted(followed, { live, names, dir: store.paths.runtimes, options });
      const settled = await settleRuntimeRuns(store.paths.runtimes, { live: names, hooks });
      if (settled)
        log(`recorded the usage of ${settled} agent CLI run${settled === 1 ? '' : 's'} that ended meanwhile`);
    },
  };
}

// --- internal ---

/**
 * Follows the runs of agent CLIs an earlier daemon started and this one adopted (their log, their idle timeout),
 * and stops following those gone. A run idle past its timeout is sent SIGTERM (its task then goes back to ready).
 */
function followAdopted(
  followed: Map<string, StreamWatch>,
  at: { live: readonly Run[]; names: ReadonlySet<string>; dir: string; options: RuntimeWiringOptions },
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
      idleMs: (agent) => {
        const org = at.options.org();
        return org?.agents.find((a) => a.id === agent)?.runIdleTimeoutMs ?? toDaemonSettings(org).runIdleTimeoutMs;
      },
      onIdle: (idle, ms) => {
        at.options.log(`${idle.taskId}: its agent CLI run gave no output for ${Math.round(ms / 1000)} s; ending it`);
        signalRun(idle, 'SIGTERM');
      },
    });
    if (watch) followed.set(name, watch);
  }
}
