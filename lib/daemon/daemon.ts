import type { Server } from 'node:http';
import { hostname } from 'node:os';
import { readPackageVersion } from '../core/package-root.js';
import { systemClock, type Clock } from '../core/time.js';
import { toPaths, type Paths } from '../store/paths.js';
import type { Fault } from '../store/commit.js';
import { createStore, type Store } from '../store/store.js';
import { createTaskIndex, type IndexChange, type TaskIndex } from '../store/task-index.js';
import type { ToolDef } from '../tools/registry.js';
import { assertHealthy, assertPrivateDir, assertSocketPath, clearLeftovers, holdInstanceLock, listenPrivate, removePidFile, removeSocket, socketLost, writePidFile, type InstanceLock } from './instance.js';
import { createLimitedServer, toServerLimits, type ServerLimits } from './server-limits.js';
import { toLongPollBudgets } from './long-polls.js';
import { createEventRetry, type EventRetry } from './event-retry.js';
import { toLeaseOwners } from './lease-owners.js';
import { listIndexed } from './list-tasks.js';
import { createLog, toLineLogger, type DaemonLog } from './log.js';
import { migrateAtStart } from './migrate-at-start.js';
import { createRoutes, type HookName, type RouteContext, type StatusBody } from './routes.js';
import { loadOrg, toDaemonSettings } from '../org/org-chart.js';
import { createChangeFeed, type ChangeFeed } from './changes.js';
import { createHealer, recordInvalid } from './heal.js';
import { requireScheduling, startScheduling, type Scheduling } from './scheduling.js';
import { createSpawnQueue, type SpawnQueue } from './spawn-queue.js';
import { closeServer, trackRequests, trapSignals, type RequestTracker } from './shutdown.js';
import { startHealthPort, type HealthPort } from './health-port.js';
import { createMetrics, metricsHandler, type Metrics } from './metrics.js';
import { createWebPort, type WebPort, type WebStarter } from './web-port.js';

/** Options of `startDaemon`; everything but `root` and `tools` has a default. */
export interface DaemonOptions {
  root: string;
  /** The tools served on `/v1/tool/invoke` (`svc daemon run` passes the `svc_*` tools and the command line's own `operator_task_*` calls). */
  tools: readonly ToolDef[];
  clock?: Clock;
  version?: string;
  /** Console alerts (`[AOF] ...`): the daemon's stderr. */
  stderr?: (text: string) => void;
  /** Stop gracefully on SIGTERM and SIGINT (the `svc daemon run` process). */
  handleSignals?: boolean;
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

/**
 * Starts the daemon on `data/daemon.sock`: single-instance lock, leftovers of a killed daemon
 * removed, index loaded, socket bound with mode 0600, `data/daemon.pid` written once `/healthz` answers.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const paths = toPaths(options.root);
  assertSocketPath(paths.socket);
  const clock = options.clock ?? systemClock;
  const signals = options.handleSignals ? trapSignals() : null;
  let parts: Partial<Running> = {};
  const store = createStore({ root: paths.root, clock, onEventError: (err, pending) => (parts.metrics?.counters.onAppendFailure(), parts.events?.onError(err, pending)), onRecordEvents: (events) => parts.metrics?.counters.onEvents(events), ...(options.fault ? { fault: options.fault } : {}) });
  try {
    await store.init();
    assertPrivateDir(paths.data);
    parts = { lock: await holdInstanceLock(paths) };
    parts.log = createLog({ file: paths.daemonLog, stderr: options.stderr, now: clock });
    parts.events = createEventRetry({ events: store.events, log: () => parts.log });
    const removed = await clearLeftovers(paths);
    if (removed.length) parts.log.warn('daemon.leftovers_removed', { removed });
    await migrateAtStart(store, parts.log);
    const daemon = await launch(paths, store, options, clock, parts as Running);
    signals?.onStop(() => void daemon.close());
    void daemon.closed.then(() => signals?.remove());
    return daemon;
  } catch (err) {
    signals?.remove();
    parts.log?.error('daemon.start_failed', { message: err instanceof Error ? err.message : String(err) });
    await parts.index?.close().catch(() => undefined);
    if (parts.server) await closeServer(parts.server, 0).catch(() => undefined);
    await parts.health?.close();
    await parts.events?.close();
    await parts.log?.close();
    await parts.lock?.release();
    throw err;
  }
}

// --- internal ---

interface Running {
  lock: InstanceLock;
  log: DaemonLog;
  events: EventRetry;
  index?: TaskIndex;
  server?: Server;
  health?: HealthPort;
  metrics?: Metrics;
}

/** What a started daemon is made of, shared by the routes and the stop. */
interface Core {
  paths: Paths;
  store: Store;
  options: DaemonOptions;
  clock: Clock;
  parts: Running & { index: TaskIndex };
  spawns: SpawnQueue;
  listeners: Set<HookListener>;
  pid: number;
  version: string;
  startedAt: number;
  stopping: boolean;
  loaded: boolean;
  /** The inode of the socket this daemon bound. */
  socketIno: number;
  lost: string | null;
  scheduling: Scheduling | null;
  healer: ReturnType<typeof createHealer>;
  /** Task changes, for the long-poll of `svc board --watch`. */
  changes: ChangeFeed;
  /** The web board's listener (docs/web-board.md). */
  web: WebPort;
}

async function launch(paths: Paths, store: Store, options: DaemonOptions, clock: Clock, parts: Running): Promise<Daemon> {
  const { log } = parts;
  let wake = (): void => undefined; // bound to the scheduler once it runs
  let observe = (_change: IndexChange): void => undefined;
  let busy = (): boolean => false; // bound to the scheduler once it runs
  const healer = createHealer(store, (line) => log.info('repair', { message: line }), (id) => void parts.index?.update([id]));
  const repair = (id: string, why: string) => healer.repair(id, why);
  const changes = createChangeFeed();
  const settings = toDaemonSettings(await loadOrg(paths.root).catch((err: unknown) => {
    log.warn('org.invalid', { message: err instanceof Error ? err.message : String(err) });
    return null;
  }));
  parts.index = await createTaskIndex(paths, {
    rescanIntervalMs: options.rescanIntervalMs ?? settings.rescanIntervalMs,
    watch: options.watch,
    onInvalid: (file) => void recordInvalid(store.events, clock, log, file),
    busy: () => busy(),
    onError: (err) => log.error('index.error', { message: err instanceof Error ? err.message : String(err) }),
    onNeedsRepair: (id, why) => repair(id, why),
    onRescanFound: ({ count, full }) => log.info('index.rescan', { message: `rescan found ${count} new or changed task files`, count, full }),
    onChange: (change) => {
      changes.bump();
      parts.metrics?.counters.onChange(change);
      observe(change);
      if (change.to === 'ready' || change.from === 'in-progress' || change.to === 'done') wake();
    },
  });
  const spawns = createSpawnQueue({
    clock, pickupTimeoutMs: options.spawnTimeoutMs ?? settings.spawnTimeoutMs, graceMs: options.pluginGraceMs,
    onHookError: (err, id) => log.error('spawn.hook_failed', { id, message: err instanceof Error ? err.message : String(err) }),
  });
  const core: Core = {
    paths, store, options, clock, parts: parts as Core['parts'], spawns, listeners: new Set(),
    pid: process.pid, version: options.version ?? readPackageVersion(), startedAt: clock().getTime(), stopping: false, loaded: false, scheduling: null, healer,
    socketIno: 0, lost: null, changes, web: null as unknown as WebPort,
  };
  const { index } = core.parts;
  const metrics = (parts.metrics = createMetrics({ clock, ready: index.summaries('ready'), source: { counts: () => index.counts(), invalid: () => index.invalid().length, summaries: (status) => index.summaries(status), plugins: () => spawns.attached(), mode: () => core.scheduling?.mode() ?? 'standalone', pendingEvents: () => store.events.pending(), spoolDir: paths.eventsSpool } }));
  void index.loaded.then(() => ((core.loaded = true), log.info('index.loaded', { byStatus: index.counts() })), () => undefined);
  const limits = toServerLimits(options.limits);
  const routeContext = toRouteContext(core, limits);
  core.web = createWebPort({ ...routeContext, paths, store, index, changes, clock, plan: async () => core.scheduling?.dryRun() ?? [], metrics: metricsHandler(() => metrics) }, options.web);
  const server = (parts.server = createLimitedServer(createRoutes(routeContext), limits, {
    onRefused: (busy) => log.warn('socket.refused', { message: `a connection was refused (503 busy): all ${busy} open connections have a request in flight` }),
  }));
  const requests = trackRequests(server);
  core.socketIno = await listenPrivate(server, paths.socket);
  await assertHealthy(paths);
  const healthPort = options.healthPort ?? settings.healthPort;
  if (healthPort !== undefined) {
    parts.health = await startHealthPort({ port: healthPort, limits, problem: () => (core.stopping ? 'stopping' : null), metrics: metricsHandler(() => metrics) });
    log.info('health.listening', { url: `http://127.0.0.1:${parts.health.port}/health` });
  }
  if (settings.webPort !== undefined) await core.web.open(settings.webPort);
  await writePidFile(paths, core.pid);
  log.info('daemon.started', { pid: core.pid, version: core.version, socket: paths.socket, byStatus: index.counts() });
  await store.events.record(clock(), [{ type: 'daemon.started', actor: 'system', payload: { pid: core.pid, version: core.version } }]);
  if (options.schedule !== false) {
    core.scheduling = await startScheduling({
      store, index, spawns, env: options.env ?? {}, log: toLineLogger(log, 'scheduler'), onHanded: metrics.counters.onHanded, trace: log.debug('scheduler'), ...(options.fault ? { fault: options.fault } : {}),
      owner: { host: hostname(), pid: core.pid },
      alert: (text) => (options.stderr ?? ((t: string) => process.stderr.write(t)))(`${text}\n`),
    });
    wake = core.scheduling.schedule;
    busy = core.scheduling.busy;
    observe = core.scheduling.observe;
  }
  const { close, closed } = createStop(core, server, requests);
  watchInstance(core, options.instanceCheckMs ?? 1000, close);
  return {
    paths, pid: core.pid, store, index, spawns, log, metrics, closed, close, lost: () => core.lost,
    onHook(listener) {
      core.listeners.add(listener);
      return () => core.listeners.delete(listener);
    },
  };
}

function toRouteContext(core: Core, limits: ServerLimits): RouteContext {
  const { clock, spawns, parts } = core;
  const { index, log } = parts;
  return {
    tools: core.options.tools, spawns, log, spawnWaitMs: core.options.spawnWaitMs ?? 25_000, longPolls: toLongPollBudgets(limits),
    status: async () => ({ ...statusOf(core), ...(core.scheduling ? { config: await core.scheduling.config(), pausedAgents: core.scheduling.pausedAgents() } : {}) }),
    isStopping: () => core.stopping,
    toolContext: {
      store: core.store, index,
      onCommitted: async (ids) => {
        await index.update(ids);
        core.changes.bump();
        core.scheduling?.schedule();
      },
    },
    listTasks: (statuses, filter) => listIndexed(index, core.store, statuses, filter), metrics: metricsHandler(() => parts.metrics),
    scheduler: {
      tick: () => requireScheduling(core.scheduling).tick(),
      dryRun: () => requireScheduling(core.scheduling).dryRun(),
    },
    beforeTool: () => index.refresh(),
    openWeb: (port) => core.web.open(port),
    waitChanges: async (after, waitMs, signal) => {
      await index.refresh();
      return core.changes.wait(after, waitMs, signal);
    },
    onHook: async (name, payload, plugin) => {
      const ended = core.scheduling?.onPluginEvent(name, payload);
      if (ended) log.info('spawn.ended', { sessionKey: ended, by: name });
      log.info(`event.${name}`, { plugin });
      await core.store.events.record(clock(), [{ type: `plugin.${name}`, actor: plugin ?? 'plugin', payload }]); // the hook took effect: its answer is success
      for (const listener of core.listeners) listener(name, payload, plugin);
    },
  };
}

function statusOf(core: Core): StatusBody {
  const { index } = core.parts;
  return {
    status: core.stopping ? 'stopping' : 'running', healthy: !core.stopping, version: core.version, pid: core.pid,
    uptimeMs: core.clock().getTime() - core.startedAt, mode: core.scheduling?.mode() ?? 'standalone', plugins: core.spawns.attached(),
    tasks: { byStatus: index.counts(), invalid: index.invalid().length, loaded: core.loaded },
    scheduler: core.scheduling?.stats() ?? { lastPollAt: null, lastTickAt: null },
    leases: toLeaseOwners(index.summaries('in-progress'), { host: hostname(), pid: core.pid }),
  };
}

/** The stop: 503 on /healthz while in-flight requests finish, then close, remove pid and socket, log. */
function createStop(core: Core, server: Server, requests: RequestTracker): { close(): Promise<void>; closed: Promise<void> } {
  const { paths, clock, pid, parts } = core;
  let stopped: Promise<void> | null = null;
  let markClosed!: () => void;
  const closed = new Promise<void>((done) => (markClosed = done));
  const close = () =>
    (stopped ??= (async () => {
      core.stopping = true;
      core.changes.close(); // held long-polls answer now instead of holding the drain
      parts.log.info('daemon.stopping', { pid, inFlight: requests.count() });
      await core.web.close(); // open boards reconnect to the next daemon
      await core.scheduling?.close();
      await core.healer.close();
      core.spawns.close();
      await requests.drained(core.options.drainTimeoutMs ?? 10_000);
      await closeServer(server, 1000);
      await removeSocket(paths.socket, core.socketIno);
      await parts.health?.close();
      await parts.index.close();
      await removePidFile(paths, pid);
      parts.log.info('daemon.stopped', { pid, uptimeMs: clock().getTime() - core.startedAt, ...(core.lost ? { lost: core.lost } : {}) });
      // A daemon whose data/ was removed writes no event: appending would create data/ again.
      if (!core.lost) await core.store.events.record(clock(), [{ type: 'daemon.stopped', actor: 'system', payload: { pid } }]);
      await parts.events.close({ spool: !core.lost });
      await parts.log.close();
      await parts.lock.release();
      markClosed();
    })());
  return { close, closed };
}

/**
 * Every `intervalMs`, checks that the socket file and the instance lock are still this daemon's.
 * When `data/` was removed (or either was replaced), clients can no longer reach this daemon and
 * another may start on the root: it logs why and stops, rather than run on unseen beside it.
 */
function watchInstance(core: Core, intervalMs: number, close: () => Promise<void>): void {
  const timer = setInterval(() => {
    if (core.stopping) return clearInterval(timer);
    const why = socketLost(core.paths.socket, core.socketIno) ?? core.parts.lock.lost();
    if (!why) return;
    clearInterval(timer);
    core.lost = why;
    core.parts.log.error('daemon.instance_lost', { pid: core.pid, message: `${why}: this daemon is no longer reachable as the daemon of ${core.paths.root}; stopping` });
    (core.options.stderr ?? ((t: string) => process.stderr.write(t)))(`[AOF] svc daemon (pid ${core.pid}) stops: ${why}.\n`);
    void close();
  }, intervalMs);
  timer.unref();
}
