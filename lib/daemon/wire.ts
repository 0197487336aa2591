import { createEmitter, type Emitter } from '../core/emitter.js';
import type { Clock } from '../core/time/clock.js';
import type { AdapterKind } from '../core/spawn.js';
import type { InvalidFile, Store, StoreOptions } from '../store/commit/store.js';
import type { EventInput } from '../store/events/log.js';
import type { IndexChange, TaskIndexOptions } from '../store/index/tasks.js';
import type { ChangeFeed } from './http/change-feed.js';
import type { EventRetry } from './event-retry.js';
import { recordInvalid, type createHealer } from './heal.js';
import type { DaemonLog } from './instance/log.js';
import type { HookName } from '../net/protocol/routes.js';
import type { DaemonState } from './options.js';
import { describeError } from '../core/errors.js';
import { isReadyWaiting, mayDispatch, type Ticks } from './ticks.js';

/** The store's signals: the events of its commits. */
export interface StoreSignals {
  /** A batch of events was recorded. */
  recorded: [events: readonly EventInput[]];
  /** The events of a committed change could not be appended (they are kept and retried). */
  appendFailed: [err: unknown, pending: number];
}

/** The task index's signals: what it saw on disk (the watcher, a rescan, the daemon's own writes). */
export interface IndexSignals {
  /** A task appeared, moved between status directories or went away (after the initial load). */
  changed: [change: IndexChange];
  /** A task's entry was set or removed, its status changed or not. */
  touched: [id: string];
  invalid: [file: InvalidFile];
  needsRepair: [id: string, why: 'moved' | 'duplicate'];
  rescanFound: [found: { count: number; full: boolean }];
  failed: [err: unknown];
}

/** The healer's signals. */
export interface HealerSignals {
  /** A task file was repaired (or found needing none): the index reads it again. */
  healed: [id: string];
}

/** The socket's signals: what its clients did. */
export interface SocketSignals {
  /** Tool calls committed these tasks, and the index and the long-polls have them. */
  committed: [ids: readonly string[]];
  /** A plugin lifecycle event took effect (`Daemon.onHook`). */
  hook: [name: HookName, payload: Record<string, unknown>, plugin: string | undefined];
}

/** The scheduler's signals. */
export interface SchedulerSignals {
  /** A spawn was handed to its adapter. */
  handed: [taskId: string, adapter: AdapterKind];
}

/** One emitter per long-lived part of the daemon. */
export interface DaemonSignals {
  store: Emitter<StoreSignals>;
  index: Emitter<IndexSignals>;
  healer: Emitter<HealerSignals>;
  socket: Emitter<SocketSignals>;
  scheduler: Emitter<SchedulerSignals>;
}

/** The parts `wireDaemon` connects. */
export interface WiredParts {
  store: Store;
  clock: Clock;
  log: DaemonLog;
  events: EventRetry;
  healer: ReturnType<typeof createHealer>;
  changes: ChangeFeed;
  /** The scheduler's ticks, one per turn of the event loop. */
  ticks: Ticks;
  /** The parts that come up after the wiring (the index, the metrics, the scheduler): each null until it is up. */
  state: Readonly<Pick<DaemonState, 'index' | 'metrics' | 'scheduling' | 'notify'>>;
}

/** The daemon's emitters; a listener that throws is reported to `onError`. */
export function createSignals(onError: (err: unknown, name: string) => void): DaemonSignals {
  const options = { onError };
  return {
    store: createEmitter(options),
    index: createEmitter(options),
    healer: createEmitter(options),
    socket: createEmitter(options),
    scheduler: createEmitter(options),
  };
}

/** The store's options that emit its signals. */
export function toStoreSignals(signals: DaemonSignals): Pick<StoreOptions, 'onEventError' | 'onRecordEvents'> {
  return {
    onEventError: (err, pending) => signals.store.emit('appendFailed', err, pending),
    onRecordEvents: (events) => signals.store.emit('recorded', events),
  };
}

/** The index's options that emit its signals; `busy` tells it the scheduler is at work. */
export function toIndexSignals(signals: DaemonSignals, busy: () => boolean): TaskIndexOptions {
  return {
    busy,
    onChange: (change) => signals.index.emit('changed', change),
    onTouched: (id) => signals.index.emit('touched', id),
    onInvalid: (file) => signals.index.emit('invalid', file),
    onNeedsRepair: (id, why) => signals.index.emit('needsRepair', id, why),
    onRescanFound: (found) => signals.index.emit('rescanFound', found),
    onError: (err) => signals.index.emit('failed', err),
  };
}

/**
 * Connects the daemon's parts, once, at its start, before the index loads (its initial load signals
 * invalid files and repairs). A task file landing in `tasks/ready/` (written by a tool, by hand, or
 * found by a rescan) is `index.changed` below: the scheduler is asked for a tick, which dispatches
 * it (lib/engine/scheduler.ts). A tool's commit is `socket.committed`: the same tick, unless each task it
 * committed changed in a way that cannot make a dispatch (`mayDispatch`). Every request of one turn of the
 * event loop makes one tick.
 */
export function wireDaemon(signals: DaemonSignals, parts: WiredParts): void {
  const { store, clock, log, events, healer, changes, state, ticks } = parts;
  const readyWaiting = () => isReadyWaiting(state.index);
  signals.store.on('recorded', (batch) => {
    state.metrics?.counters.onEvents(batch);
    state.notify?.poke();
  });
  signals.store.on('appendFailed', (err, pending) => {
    state.metrics?.counters.onAppendFailure();
    events.onError(err, pending);
  });
  signals.index.on('changed', (change) => {
    state.metrics?.counters.onChange(change);
    state.scheduling?.observe(change);
    if (mayDispatch(change, readyWaiting)) ticks.request();
  });
  signals.index.on('touched', (id) => changes.bump([id]));
  signals.index.on('invalid', (file) => void recordInvalid({ events: store.events, clock, log }, file));
  signals.index.on('needsRepair', (id, why) => healer.repair(id, why));
  signals.index.on('rescanFound', ({ count, full }) =>
    log.info('index.rescan', { message: `rescan found ${count} new or changed task files`, count, full }),
  );
  signals.index.on('failed', (err) => log.error('index.error', { message: describeError(err) }));
  signals.healer.on('healed', (id) => void state.index?.update([id]));
  signals.socket.on('committed', (ids) => {
    if (ticks.committedAsk(ids)) ticks.request();
  });
  signals.scheduler.on('handed', (taskId, adapter) => state.metrics?.counters.onHanded(taskId, adapter));
}
