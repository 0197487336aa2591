import type { Server } from 'node:http';
import type { Clock } from '../core/time/clock.js';
import type { Fault } from '../store/commit/protocol.js';
import type { Paths } from '../store/disk/paths.js';
import type { Store } from '../store/commit/store.js';
import type { TaskIndex } from '../store/index/tasks.js';
import type { ToolDef } from '../tools/registry.js';
import type { EventRetry } from './event-retry.js';
import type { HealthPort } from './health-port.js';
import type { InstanceLock } from './instance/lock.js';
import type { DaemonLog } from './instance/log.js';
import type { Metrics } from './metrics/registry.js';
import type { HookName } from '../net/protocol/routes.js';
import type { Scheduling } from './scheduling/scheduling.js';
import type { NotifyWiring } from './notify/runner.js';
import type { ServerLimits } from './http/limits.js';
import type { SpawnQueue } from './scheduling/spawn-queue.js';
import type { WebStarter } from './web-port.js';

/** Options of `startDaemon`; everything but `root` and `tools` has a default. */
export interface DaemonOptions {
  root: string;
  /**
   * The tools served on `/v1/tool/invoke` (`svc daemon run` passes the `svc_*` tools and the command line's own
   * `operator_task_*` calls).
   */
  tools: readonly ToolDef[];
  clock?: Clock;
  version?: string;
  /** Console alerts (`[AOF] ...`): the daemon's stderr. */
  stderr?: (text: string) => void;
  /**
   * Stop gracefully on SIGTERM and SIGINT, and at once on a second within `FORCE_WINDOW_MS` through
   * `exit` (the `svc daemon run` process, whose command line owns the exit).
   */
  handleSignals?: { exit: (code: number) => void };
  /** How long an idle `GET /v1/spawns/wait` is held (25 s). */
  spawnWaitMs?: number;
  /** A spawn no plugin takes within this fails with `spawn_timeout` (30 s). */
  spawnTimeoutMs?: number;
  /** A plugin counts as attached this long after its last long-poll (5 s). */
  pluginGraceMs?: number;
  /** Period of the index rescan (5 s). */
  rescanIntervalMs?: number;
  /** How long a stop waits for in-flight requests before closing their connections (10 s). */
  drainTimeoutMs?: number;
  /** Watch the status directories of `tasks/` (default true). */
  watch?: boolean;
  /** Run the scheduler (default true; tests of the socket alone turn it off). */
  schedule?: boolean;
  /** The environment agents start from, and where `SVC_GATEWAY_TOKEN` is read. */
  env?: Record<string, string | undefined>;
  /** Open `GET /health` on 127.0.0.1:<port> (else `aof.daemon.healthPort`; none when neither). */
  healthPort?: number;
  /** The web board (lib/web), opened by `svc web` (`POST /v1/web`) or at start on `aof.daemon.webPort`. */
  web?: WebStarter;
  /** Deadlines, the connection cap and the long-poll budgets of the socket (`DEFAULT_LIMITS`). */
  limits?: Partial<ServerLimits>;
  /** How often the daemon checks that its socket and instance lock are still its own (1 s). */
  instanceCheckMs?: number;
  /** Fault injection for crash tests: called at each step of a dispatch and of its commit; never set otherwise. */
  fault?: Fault;
}

/** A running daemon. */
export interface Daemon {
  paths: Paths;
  pid: number;
  store: Store;
  index: TaskIndex;
  spawns: SpawnQueue;
  log: DaemonLog;
  /** Its metrics (docs/metrics.md): `metricsHandler(() => daemon.metrics)` serves them on any listener. */
  metrics: Metrics;
  /** Subscribes to plugin lifecycle events; returns the unsubscribe function. */
  onHook(listener: HookListener): () => void;
  /** Resolves once the daemon has stopped (by `close()`, a signal, or losing its socket or lock). */
  closed: Promise<void>;
  /** Why the daemon stopped on its own: its socket or instance lock disappeared or changed hands; null otherwise. */
  lost(): string | null;
  /** Stops: 503 on /healthz while in-flight requests finish, then closes and removes pid and socket. */
  close(): Promise<void>;
}

/** A listener of plugin lifecycle events. */
export type HookListener = (name: HookName, payload: Record<string, unknown>, plugin: string | undefined) => void;

/** The parts of a starting daemon, each closed when the start fails. */
export interface Running {
  lock: InstanceLock;
  log: DaemonLog;
  events: EventRetry;
  server?: Server;
  health?: HealthPort;
}

/**
 * What changes over a running daemon's life: its flags, and the parts that come up after the
 * wiring (each null until it is up). Written by the start and the stop; the routes and the wiring read it.
 */
export interface DaemonState {
  stopping: boolean;
  /** Every task, terminal ones included, has been read. */
  loaded: boolean;
  /** Why the daemon stopped on its own (see `Daemon.lost`). */
  lost: string | null;
  /** The inode of the socket this daemon bound. */
  socketIno: number;
  index: TaskIndex | null;
  metrics: Metrics | null;
  scheduling: Scheduling | null;
  /** The notifications (docs/notifications.md), started with the scheduler. */
  notify: NotifyWiring | null;
}
