import { hostname } from 'node:os';
import { readPackageVersion } from '../core/package-root.js';
import type { Clock } from '../core/time/clock.js';
import { healthUrl } from '../net/protocol/routes.js';
import { createFileCache } from '../engine/file-cache.js';
import { loadOrg, toDaemonSettings } from '../org/org-chart.js';
import type { OrgChart } from '../org/schema.js';
import type { Paths } from '../store/disk/paths.js';
import type { Store } from '../store/commit/store.js';
import { createTaskIndex } from '../store/index/tasks.js';
import { createChangeFeed } from './http/change-feed.js';
import type { Daemon, DaemonOptions, DaemonState, Running } from './options.js';
import { toRouteContext } from './bind-routes.js';
import { createStop, watchInstance, type StopHandles } from './stop.js';
import { startHealthPort } from './health-port.js';
import { assertHealthy, listenPrivate, writePidFile } from './instance/lock.js';
import { toLineLogger } from './instance/log.js';
import { createMetrics, metricsHandler } from './metrics/registry.js';
import { createRoutes } from './socket/routes.js';
import { startScheduling } from './scheduling/start.js';
import { startNotifyWiring } from './notify/runner.js';
import { createLimitedServer, toServerLimits } from './http/limits.js';
import { trackRequests } from './shutdown.js';
import { createSpawnQueue } from './scheduling/spawn-queue.js';
import { createWebPort } from './web-port.js';
import { toIndexSignals, wireDaemon, type DaemonSignals } from './wire.js';
import { startOwnCommits } from './own-commits.js';
import { createTicks } from './ticks.js';
import { describeError } from '../core/errors.js';

/** The holds of a daemon without a scheduler: none. */
const NO_HOLDS = new Map<string, never>();

/** What `startDaemon` hands on once it holds the lock: the tree, its store, and the parts started so far. */
export interface Launch {
  paths: Paths;
  store: Store;
  options: DaemonOptions;
  clock: Clock;
  parts: Running;
  state: DaemonState;
  signals: DaemonSignals;
}

/**
 * Loads the index and binds the socket, then the health port, the web board and the scheduler; answers the running
 * daemon.
 */
export async function launch({
  paths,
  store: disk,
  options,
  clock,
  parts,
  state,
  signals,
}: Launch): Promise<{ daemon: Daemon; abandon(): Promise<void> }> {
  const { log } = parts;
  const ticks = createTicks(() => state.scheduling?.schedule());
  const { store, healer, inFlight } = startOwnCommits(disk, {
    state,
    ticks,
    log: (line) => log.info('repair', { message: line }),
    onHealed: (id) => signals.healer.emit('healed', id),
  });
  const changes = createChangeFeed();
  wireDaemon(signals, { store, clock, log, events: parts.events, healer, changes, state, ticks });
  const settings = toDaemonSettings(
    await loadOrg(paths.root).catch((err: unknown) => {
      log.warn('org.invalid', { message: describeError(err) });
      return null;
    }),
  );
  const index = (state.index = await createTaskIndex(paths, {
    rescanIntervalMs: options.rescanIntervalMs ?? settings.rescanIntervalMs,
    watch: options.watch,
    inFlight,
    ...toIndexSignals(signals, () => state.scheduling?.busy() ?? false),
  }));
  const spawns = createSpawnQueue({
    clock,
    pickupTimeoutMs: options.spawnTimeoutMs ?? settings.spawnTimeoutMs,
    graceMs: options.pluginGraceMs,
    onHookError: (err, id) => log.error('spawn.hook_failed', { id, message: describeError(err) }),
  });
  const pid = process.pid;
  const version = options.version ?? readPackageVersion();
  const startedAt = clock().getTime();
  const metrics = (state.metrics = createMetrics({
    clock,
    ready: index.summaries('ready'),
    source: {
      counts: () => index.counts(),
      invalid: () => index.invalid().length,
      summaries: (status) => index.summaries(status),
      plugins: () => spawns.attached(),
      mode: () => state.scheduling?.mode() ?? 'standalone',
      pendingEvents: () => store.events.pending(),
      spoolDir: paths.eventsSpool,
    },
    loadOrg: createFileCache<OrgChart | null>(paths.orgChart, (previous) =>
      loadOrg(paths.root).catch(() => previous ?? null),
    ).get,
    work: {
      blocked: () => index.summaries('blocked'),
      holds: () => state.scheduling?.holdCounts() ?? {},
      pausedAgents: () => state.scheduling?.pausedAgents().length ?? 0,
      workspacesDir: paths.workspaces,
    },
    notify: { depth: () => state.notify?.depth() ?? null },
  }));
  void index.loaded.then(
    () => {
      state.loaded = true;
      log.info('index.loaded', { byStatus: index.counts() });
    },
    () => undefined,
  );
  const limits = toServerLimits(options.limits);
  // The board is mounted on the socket's context, whose `/status` names the board's port: one refers to the other.
  const routeContext = toRouteContext(
    {
      tools: options.tools,
      // The chart as the tools read it (an invalid one is their error), parsed once per version of the file.
      org: createFileCache<OrgChart | null>(paths.orgChart, () => loadOrg(paths.root)).get,
      spawnWaitMs: options.spawnWaitMs ?? 25_000,
      store,
      index,
      spawns,
      log,
      clock,
      changes,
      web: { open: (port) => web.open(port), port: () => web.port() },
      signals,
      pid,
      version,
      startedAt,
      state,
    },
    limits,
  );
  const web = createWebPort(
    {
      ...routeContext,
      paths,
      store,
      index,
      changes,
      clock,
      plan: async () => state.scheduling?.dryRun() ?? [],
      holds: () => state.scheduling?.holds() ?? NO_HOLDS,
      metrics: metricsHandler(() => metrics),
    },
    options.web,
  );
  const server = (parts.server = createLimitedServer(createRoutes(routeContext), limits, {
    onRefused: (busy) =>
      log.warn('socket.refused', {
        message: `a connection was refused (503 busy): all ${busy} open connections have a request in flight`,
      }),
    onFailure: (err, req) =>
      log.error('request.failed', {
        method: req.method,
        url: String(req.url).slice(0, 200),
        code: err.code,
        message: err.message,
      }),
  }));
  const requests = trackRequests(server);
  state.socketIno = await listenPrivate(server, paths.socket);
  await assertHealthy(paths);
  const healthPort = options.healthPort ?? settings.healthPort;
  if (healthPort !== undefined) {
    parts.health = await startHealthPort({
      port: healthPort,
      limits,
      problem: () => (state.stopping ? 'stopping' : null),
      metrics: metricsHandler(() => metrics),
    });
    log.info('health.listening', { url: healthUrl('127.0.0.1', parts.health.port) });
  }
  if (settings.webPort !== undefined) await web.open(settings.webPort);
  else await web.reopen();
  await writePidFile(paths, pid);
  log.info('daemon.started', { pid, version, socket: paths.socket, byStatus: index.counts() });
  await store.events.record(clock(), [{ type: 'daemon.started', actor: 'system', payload: { pid, version } }]);
  if (options.schedule !== false) {
    state.notify = await startNotifyWiring({
      store,
      taskOf: (id) => index.get(id),
      env: options.env ?? {},
      log: toLineLogger(log, 'notify'),
      webPort: () => web.port(),
      onOutcome: (outcome) => metrics.notify.onOutcome(outcome),
    });
    state.scheduling = await startScheduling({
      store,
      index,
      spawns,
      env: options.env ?? {},
      log: toLineLogger(log, 'scheduler'),
      onHanded: (taskId, adapter) => signals.scheduler.emit('handed', taskId, adapter),
      onRecorded: (listener) => signals.store.on('recorded', listener),
      trace: log.debug('scheduler'),
      ...(options.fault ? { fault: options.fault } : {}),
      owner: { host: hostname(), pid },
      alert: (text) => (options.stderr ?? ((t: string) => process.stderr.write(t)))(`${text}\n`),
    });
  }
  const stopHandles: StopHandles = {
    paths,
    clock,
    pid,
    startedAt,
    store,
    index,
    spawns,
    changes,
    web,
    healer,
    log,
    lock: parts.lock,
    events: parts.events,
    health: parts.health,
    server,
    requests,
    drainMs: options.drainTimeoutMs ?? 10_000,
    stderr: options.stderr ?? ((t: string) => process.stderr.write(t)),
    state,
  };
  const { close, closed, abandon } = createStop(stopHandles);
  watchInstance(stopHandles, options.instanceCheckMs ?? 1000, close);
  const daemon: Daemon = {
    paths,
    pid,
    store,
    index,
    spawns,
    log,
    metrics,
    closed,
    close,
    lost: () => state.lost,
    onHook: (listener) => signals.socket.on('hook', listener),
  };
  return { daemon, abandon };
}
