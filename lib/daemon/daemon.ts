import { toPaths } from '../store/disk/paths.js';
import { createStore } from '../store/commit/store.js';
import type { Daemon, DaemonOptions, DaemonState, Running } from './options.js';
import { createEventRetry } from './event-retry.js';
import { assertPrivateDir, assertSocketPath, clearLeftovers, holdInstanceLock } from './instance/lock.js';
import { createLog } from './instance/log.js';
import { launch } from './launch.js';
import { migrateAtStart } from './migrate-at-start.js';
import { closeServer, trapSignals } from './shutdown.js';
import { createSignals, toStoreSignals } from './wire.js';
import { describeError } from '../core/errors.js';
import { systemClock } from '../core/time/clock.js';

export type { Daemon, DaemonOptions, HookListener } from './options.js';

/**
 * Starts the daemon on `data/daemon.sock`: single-instance lock, leftovers of a killed daemon
 * removed, index loaded, socket bound with mode 0600, `data/daemon.pid` written once `/healthz` answers.
 * Its parts signal each other through the emitters of `wire.ts`, connected there in one place.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const paths = toPaths(options.root);
  assertSocketPath(paths.socket);
  const clock = options.clock ?? systemClock;
  const trap = options.handleSignals ? trapSignals(options.handleSignals) : null;
  let parts: Partial<Running> = {};
  const state: DaemonState = {
    stopping: false,
    loaded: false,
    lost: null,
    socketIno: 0,
    index: null,
    metrics: null,
    scheduling: null,
    notify: null,
  };
  const signals = createSignals((err, name) =>
    parts.log?.error('signal.failed', { signal: name, message: describeError(err) }),
  );
  // The index watches the status directories: where it saw an id is where a change looks first, except for an id it
  // found in two directories, until the healer has been through it (docs/architecture.md, "Commit protocol").
  const duplicates = new Set<string>();
  signals.index.on('needsRepair', (id, why) => void (why === 'duplicate' && duplicates.add(id)));
  signals.healer.on('healed', (id) => duplicates.delete(id));
  const store = createStore({
    root: paths.root,
    clock,
    ...toStoreSignals(signals),
    ...(options.fault ? { fault: options.fault } : {}),
    treeHeld: () => parts.lock !== undefined && state.lost === null,
    whereIs: (id) => (duplicates.has(id) ? undefined : state.index?.get(id)?.status),
  });
  try {
    await store.init();
    assertPrivateDir(paths.data);
    parts = { lock: await holdInstanceLock(paths) };
    trap?.onForce(() => parts.lock!.release()); // a second signal during the start
    parts.log = createLog({ file: paths.daemonLog, stderr: options.stderr, now: clock });
    parts.events = createEventRetry({ events: store.events, log: () => parts.log });
    const removed = await clearLeftovers(paths);
    if (removed.length) parts.log.warn('daemon.leftovers_removed', { removed });
    await migrateAtStart(store, parts.log);
    const { daemon, abandon } = await launch({ paths, store, options, clock, parts: parts as Running, state, signals });
    trap?.onForce(abandon);
    trap?.onStop(() => void daemon.close());
    void daemon.closed.then(() => trap?.remove());
    return daemon;
  } catch (err) {
    trap?.remove();
    parts.log?.error('daemon.start_failed', { message: describeError(err) });
    await state.index?.close().catch(() => undefined);
    if (parts.server) await closeServer(parts.server, 0).catch(() => undefined);
    await parts.health?.close();
    await parts.events?.close();
    await parts.log?.close();
    await parts.lock?.release();
    throw err;
  }
}
