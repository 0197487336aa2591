import { Gauge, type Registry } from 'prom-client';
import { HOLD_REASONS, type HoldReason } from '../../engine/plan.js';
import type { IndexEntry } from '../../store/index/tasks.js';
import { listRecords } from '../../workspace/records.js';

/** What the gauges of the work waiting on someone read at each scrape. */
export interface WorkGaugeSource {
  /** Blocked tasks, some waiting at an approval gate (`awaiting`). */
  blocked(): Iterable<IndexEntry>;
  /** Ready tasks the scheduler's last tick held, by reason. */
  holds(): Partial<Record<HoldReason, number>>;
  /** Agents paused by `svc agent pause`, as the scheduler last read them. */
  pausedAgents(): number;
  /** `data/workspaces/`: the records of the worktrees svc created. */
  workspacesDir: string;
}

/**
 * Registers the gauges of work that waits (docs/metrics.md): held ready tasks by reason (every
 * reason, 0 included, so the label set is the fixed list of reasons), tasks awaiting approval,
 * paused agents and worktrees kept for their uncommitted changes.
 */
export function registerWorkGauges(registry: Registry, source: WorkGaugeSource): void {
  const registers = [registry];
  new Gauge({
    name: 'svc_ready_held_tasks',
    help: 'Ready tasks the last scheduler tick held, by reason.',
    labelNames: ['reason'],
    registers,
    collect() {
      const holds = source.holds();
      for (const reason of HOLD_REASONS) this.set({ reason }, holds[reason] ?? 0);
    },
  });
  new Gauge({
    name: 'svc_tasks_awaiting_approval',
    help: 'Blocked tasks waiting at an approval gate.',
    registers,
    collect() {
      let waiting = 0;
      for (const entry of source.blocked()) if (entry.awaiting) waiting++;
      this.set(waiting);
    },
  });
  new Gauge({
    name: 'svc_agents_paused',
    help: 'Agents paused by svc agent pause.',
    registers,
    collect() {
      this.set(source.pausedAgents());
    },
  });
  new Gauge({
    name: 'svc_worktrees_kept',
    help: 'Worktrees of ended tasks kept for their uncommitted changes.',
    registers,
    async collect() {
      this.set((await listRecords(source.workspacesDir).catch(() => [])).filter((record) => record.kept).length);
    },
  });
}
