import type { Adapter } from '../core/spawn.js';
import type { OrgChart } from '../org/schema.js';
import type { Fault } from '../store/commit/protocol.js';
import type { Store } from '../store/commit/store.js';
import type { LeaseOwner } from '../store/changes/dispatch.js';
import type { Action, AdapterKind, HoldReason, Mode, Snapshot } from './plan.js';

/** Where the scheduler reads state from: the daemon's index, or a store listing. */
export interface SchedulerSource {
  snapshot(): Snapshot | Promise<Snapshot>;
}

/** Everything the scheduler is wired to. */
export interface SchedulerOptions {
  store: Store;
  source: SchedulerSource;
  adapters: Partial<Record<AdapterKind, Adapter>>;
  loadOrg: () => Promise<OrgChart | null>;
  mode: () => Mode;
  pluginAttached: () => boolean;
  /** Daemon log lines. */
  log: (line: string) => void;
  /** Console alerts (`[AOF] ...`), to stderr. */
  alert: (text: string) => void;
  /** Called with the ids the scheduler committed, so an index updates at once. */
  onCommitted?: (ids: readonly string[]) => void | Promise<void>;
  /** How long a hold warning of one task and reason stays quiet. */
  holdLogIntervalMs?: number;
  /** `aof.daemon.dryRun`: plan and log, change nothing. */
  dryRun?: () => boolean;
  /** Verbose lines (one per tick), shown with `DEBUG=svc:scheduler`. */
  trace?: (line: string) => void;
  /** Why no org chart can be used (an invalid file and none loaded before): ready tasks are held with it. */
  orgProblem?: () => string | null;
  /** Fault injection for crash tests: called at each step of a dispatch (see `runDispatch`). */
  fault?: Fault;
  /** The daemon granting leases: recorded in each lease, and what `maxDispatchesPerDaemon` counts. */
  owner?: LeaseOwner;
  /** Ends whatever runs of the task may still be alive (its lease expired, or it waits to be dispatched again). */
  endRuns?: (taskId: string, why: string) => void;
  /** The budget hold of one plan, for the org chart and time it is made with (`toBudgetHold` over the ledger). */
  budgetHold?: (org: OrgChart | null, now: Date) => ((agent: string) => string | null) | undefined;
}

/** What one tick did. */
export interface TickReport {
  actions: Action[];
  dispatched: string[];
}

/** A running scheduler: `schedule()` asks for a coalesced tick; `tick()` runs one now. */
export interface SchedulerHandle {
  schedule(): void;
  tick(): Promise<TickReport>;
  /** What a tick would do now, changing nothing. */
  preview(): Promise<Action[]>;
  /** Resolves when no tick is running or queued and no run is being handed to an adapter. */
  idle(): Promise<void>;
  /** True while a tick is running or queued or a run is being handed to an adapter (what `idle()` waits for). */
  busy(): boolean;
  /** Resolves when, in addition, every run the adapters can watch has ended and been checked. */
  drain(): Promise<void>;
  stats(): { lastTickAt: string | null; activeRuns: number };
  /**
   * Why each ready task the last tick held waits (`not-before`, `no-route`, `agent-paused`, ...): what the board shows
   * on its card.
   */
  holds(): ReadonlyMap<string, Hold>;
  /** Ready tasks the last tick held, by reason (the metrics). */
  holdCounts(): Partial<Record<HoldReason, number>>;
  close(): Promise<void>;
}

/** Why a ready task waits, as the last tick planned it. */
export type Hold = Pick<Extract<Action, { kind: 'hold' }>, 'reason' | 'detail'>;
