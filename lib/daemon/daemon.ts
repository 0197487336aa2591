import { hostname } from 'node:os';
import { readPackageVersion } from '../core/package-root.js';
import { systemClock, type Clock } from '../core/time/clock.js';
import { loadOrg, toDaemonSettings } from '../org/org-chart.js';
import { toPaths, type Paths } from '../store/disk/paths.js';
import { createStore, type Store } from '../store/commit/store.js';
import { createTaskIndex, type IndexChange } from '../store/index/tasks.js';
import { createChangeFeed } from './http/change-feed.js';
import type { Core, Daemon, DaemonOptions, Running } from './options.js';
import { toRouteContext } from './bind-routes.js';
import { createStop, watchInstance } from './stop.js';
import { createEventRetry } from './event-retry.js';
import { createHealer, recordInvalid } from './heal.js';
import { startHealthPort } from './health-port.js';
import { assertHealthy, assertPrivateDir, assertSocketPath, clearLeftovers, holdInstanceLock, listenPrivate, writePidFile } from './instance/lock.js';
import { createLog, toLineLogger } from './instance/log.js';
import { createMetrics, metricsHandler } from './metrics/registry.js';
import { migrateAtStart } from './migrate-at-start.js';
import { createRoutes } from './socket/routes.js';
import { startScheduling } from './scheduling/start.js';
import { createLimitedServer, toServerLimits } from './http/limits.js';
import { closeServer, trackRequests, trapSignals } from './shutdown.js';
import { createSpawnQueue } from './scheduling/spawn-queue.js';
import { createWebPort, type WebPort } from './web-port.js';

export type { Daemon, DaemonOptions, HookListener } from './options.js';

/** The holds of a daemon without a scheduler: none. */
const NO_HOLDS = new Map<string, never>();

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
    signals?.onForce(() => parts.lock!.release()); // a second signal during the start
    parts.log = createLog({ file: paths.daemonLog, stderr: options.stderr, now: clock });
    parts.events = createEventRetry({ events: store.events, log: () => parts.log });
    const removed = await clearLeftovers(paths);
    if (removed.length) parts.log.warn('daemon.leftovers_removed', { removed });
    await migrateAtStart(store, parts.log);
    const { daemon, abandon } = await launch(paths, store, options, clock, parts as Running);
    signals?.onForce(abandon);
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

async function launch(paths: Paths, store: Store, options: DaemonOptions, clock: Clock, parts: Running): Promise<{ daemon: Daemon; abandon(): Promise<void> }> {
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
    onTouched: (id) => changes.bump([id]),
    onChange: (change) => {
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
  const metrics = (parts.metrics = createMetrics({ clock, ready: index.summaries('ready'), source: { counts: () => index.counts(), invalid: () => index.invalid().length, summaries: (status) => index.summaries(status), plugins: () => spawns.attached(), mode: () => core.scheduling?.mode() ?? 'standalone', pendingEvents: () => store.events.pending(), spoolDir: paths.eventsSpool },
    work: { blocked: () => index.summaries('blocked'), holds: () => core.scheduling?.holdCounts() ?? {}, pausedAgents: () => core.scheduling?.pausedAgents().length ?? 0, workspacesDir: paths.workspaces } }));
  void index.loaded.then(() => ((core.loaded = true), log.info('index.loaded', { byStatus: index.counts() })), () => undefined);
  const limits = toServerLimits(options.limits);
  const routeContext = toRouteContext(core, limits);
  core.web = createWebPort({ ...routeContext, paths, store, index, changes, clock, plan: async () => core.scheduling?.dryRun() ?? [], holds: () => core.scheduling?.holds() ?? NO_HOLDS, metrics: metricsHandler(() => metrics) }, options.web);
  const server = (parts.server = createLimitedServer(createRoutes(routeContext), limits, {
    onRefused: (busy) => log.warn('socket.refused', { message: `a connection was refused (503 busy): all ${busy} open connections have a request in flight` }),
    onFailure: (err, req) => log.error('request.failed', { method: req.method, url: String(req.url).slice(0, 200), code: err.code, message: err.message }),
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
  else await core.web.reopen();
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
  const { close, closed, abandon } = createStop(core, server, requests);
  watchInstance(core, options.instanceCheckMs ?? 1000, close);
  const daemon: Daemon = {
    paths, pid: core.pid, store, index, spawns, log, metrics, closed, close, lost: () => core.lost,
    onHook(listener) {
      core.listeners.add(listener);
      return () => core.listeners.delete(listener);
    },
  };
  return { daemon, abandon };
}
