import type { Run } from '../../adapters/runs.js';
import { SvcError } from '../../core/errors.js';
import type { LeaseOwner } from '../../store/changes/dispatch.js';
import type { Action, AdapterKind, HoldReason, Mode } from '../../engine/plan.js';
import type { Hold } from '../../engine/scheduler.js';
import type { Fault } from '../../store/commit/protocol.js';
import type { AgentPause } from '../../store/records/agent-pauses.js';
import type { Store } from '../../store/commit/store.js';
import type { EventInput } from '../../store/events/log.js';
import type { SpendLedger } from '../../store/events/spend.js';
import type { IndexChange, TaskIndex } from '../../store/index/tasks.js';
import type { ConfigReport } from '../../net/protocol/status.js';
import type { HandedOn } from './run-ender.js';
import type { SpawnQueue } from './spawn-queue.js';

/** What the daemon hands its scheduler. */
export interface SchedulingOptions {
  store: Store;
  index: TaskIndex;
  spawns: SpawnQueue;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  alert: (text: string) => void;
  /** Verbose lines (`DEBUG=svc:scheduler`). */
  trace?: (line: string) => void;
  /** Fault injection for crash tests (see `runDispatch`); never set otherwise. */
  fault?: Fault;
  /** This daemon, as recorded in the leases it grants (host and pid). */
  owner?: LeaseOwner;
  /** A spawn was handed to its adapter (the daemon's dispatch latency). */
  onHanded?: (taskId: string, adapter: AdapterKind) => void;
  /** Tells `listener` of every batch of events the store records (the spend ledger counts the `run.usage` ones). */
  onRecorded?: (listener: (events: readonly EventInput[]) => void) => () => void;
}

/** The daemon's scheduler: mode decided at boot, ticks from the index, polls for leases. */
export interface Scheduling {
  mode(): Mode;
  stats(): { lastPollAt: string | null; lastTickAt: string | null };
  /** Why each ready task the last tick held waits. */
  holds(): ReadonlyMap<string, Hold>;
  /** Asks for a coalesced tick (a task reached ready, left in-progress or reached done). */
  schedule(): void;
  /** A tick or a dispatch is under way (background work of the index waits for it). */
  busy(): boolean;
  tick(): Promise<Action[]>;
  /** What a tick would do now, changing nothing. */
  dryRun(): Promise<Action[]>;
  /**
   * A plugin event: `agent-end` or `session-end` naming a running spawn's session key ends that run; returns the key.
   */
  onPluginEvent(name: string, payload: Record<string, unknown>): string | null;
  /** The org chart's state: loaded, absent, or invalid with its first problems. */
  config(): Promise<ConfigReport>;
  /** The agents paused by `svc agent pause`, as last read. */
  pausedAgents(): AgentPause[];
  /** Ready tasks the last tick held, by reason. */
  holdCounts(): Partial<Record<HoldReason, number>>;
  /**
   * A call that may hand `taskId` on starts (docs/scheduler.md, "One run per task"); settle it with the session whose
   * lease it ended, or null.
   */
  handOn(taskId: string): (handed: HandedOn | null) => void;
  /** The local command agent runs not yet gone (the operator's decisions refuse their calls). */
  localRuns(): Run[];
  /** What each agent spent today and this month (docs/agent-runtimes.md, "Budgets"). */
  ledger: SpendLedger;
  /**
   * A task changed status in the index: murmur counts the teams' completions and failures; a cancel ends the task's
   * runs.
   */
  observe(change: IndexChange): void;
  close(): Promise<void>;
}

/** The scheduler of a daemon started with one; `unavailable` otherwise. */
export function requireScheduling(scheduling: Scheduling | null): Scheduling {
  if (scheduling) return scheduling;
  throw new SvcError('unavailable', 'This daemon runs without a scheduler.', 'Start it with `svc daemon start`.');
}
