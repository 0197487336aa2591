import type { SpawnRequest } from '../../core/spawn.js';
import { systemClock, type Clock } from '../../core/time/clock.js';
import type { AttachedPlugin } from '../../net/protocol/status.js';
import type { SpawnResultBody } from '../../net/protocol/bodies.js';
import { createSpawnStops } from './spawn-stops.js';

/** A spawn handed to a plugin by `GET /v1/spawns/wait` (docs/architecture.md, "Adapters"): the adapters' request. */
export type Spawn = SpawnRequest;

/** What the plugin reports by `POST /v1/spawns/{id}/result`, or what the queue reports itself. */
export type SpawnResult = SpawnResultBody;

/** Called when a plugin takes the spawn (the run is starting). */
export interface EnqueueHooks {
  onTaken?: (pluginId: string) => void;
}

/** Options of `createSpawnQueue`. */
export interface SpawnQueueOptions {
  clock?: Clock;
  /** A spawn nobody takes within this is a failure, `spawn_timeout` (`aof.daemon.spawnTimeoutMs`). */
  pickupTimeoutMs?: number;
  /** A plugin stays attached this long after its last long-poll ended. */
  graceMs?: number;
  /** A hook that threw (the spawn itself is never lost over it). */
  onHookError?: (err: unknown, spawnId: string) => void;
}

/** The plugin bridge's queue: the scheduler enqueues, plugins long-poll and report results. */
export type SpawnQueue = ReturnType<typeof createSpawnQueue>;

/** Creates an empty queue. */
export function createSpawnQueue(options: SpawnQueueOptions = {}) {
  const clock = options.clock ?? systemClock;
  const queued: Spawn[] = [];
  const open = new Map<string, (result: SpawnResult) => void>();
  const settled = new Map<string, SpawnResult>();
  const waiters: Waiter[] = [];
  const plugins = new Map<string, PluginState>();
  const timers = new Map<string, NodeJS.Timeout>();
  const takenHooks = new Map<string, (pluginId: string) => void>();
  const attachListeners = new Set<(pluginId: string) => void>();
  const graceMs = options.graceMs ?? 5000;
  const pickupMs = options.pickupTimeoutMs ?? 30_000;
  const stops = createSpawnStops(pickupMs, (id) =>
    settle(id, {
      ok: false,
      reason: 'stop_timeout',
      error: `The plugin did not report the end of spawn ${id} within ${pickupMs} ms of the stop.`,
    }),
  );

  function arm(spawn: Spawn): void {
    const error = `No plugin took spawn ${spawn.id} (task ${spawn.taskId}) within ${pickupMs} ms.`;
    timers.set(
      spawn.id,
      setTimeout(() => settle(spawn.id, { ok: false, reason: 'spawn_timeout', error }), pickupMs),
    );
  }

  function settle(id: string, result: SpawnResult): 'settled' | 'already' | 'unknown' {
    if (settled.has(id)) return 'already';
    const resolve = open.get(id);
    if (!resolve) return 'unknown';
    open.delete(id);
    stops.forget(id);
    takenHooks.delete(id);
    clearTimeout(timers.get(id));
    timers.delete(id);
    const at = queued.findIndex((spawn) => spawn.id === id);
    if (at !== -1) queued.splice(at, 1);
    remember(settled, id, result);
    resolve(result);
    return 'settled';
  }

  function handOut(): void {
    while (queued.length && waiters.length) {
      const spawn = queued.shift()!;
      clearTimeout(timers.get(spawn.id));
      timers.delete(spawn.id);
      const waiter = waiters.shift()!;
      waiter.give(spawn);
      const onTaken = takenHooks.get(spawn.id);
      takenHooks.delete(spawn.id);
      try {
        onTaken?.(waiter.pluginId);
      } catch (err) {
        // the scheduler's hook failing must not lose the spawn already handed out; it is logged
        options.onHookError?.(err, spawn.id);
      }
    }
  }

  return {
    /** Queues a spawn; resolves with the plugin's result (or `spawn_timeout`, `daemon_stopped`). */
    enqueue(spawn: Spawn, hooks: EnqueueHooks = {}): Promise<SpawnResult> {
      if (open.has(spawn.id) || settled.has(spawn.id))
        return Promise.resolve({ ok: false, reason: 'duplicate_spawn', error: `Spawn ${spawn.id} was queued before.` });
      const result = new Promise<SpawnResult>((resolve) => open.set(spawn.id, resolve));
      if (hooks.onTaken) takenHooks.set(spawn.id, hooks.onTaken);
      queued.push(spawn);
      arm(spawn);
      handOut();
      return result;
    },

    /** A plugin's long-poll: the next spawn, or null after `holdMs` (or when `signal` aborts). */
    take(pluginId: string, holdMs: number, signal?: AbortSignal): Promise<Spawn | null> {
      const arrived = !isAttached(plugins.get(pluginId), clock().getTime(), graceMs);
      const plugin = attach(plugins, pluginId, { now: clock(), graceMs });
      return new Promise<Spawn | null>((resolve) => {
        const finish = (spawn: Spawn | null) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          const at = waiters.indexOf(waiter);
          if (at !== -1) waiters.splice(at, 1);
          plugin.polls--;
          plugin.lastSeenMs = clock().getTime();
          resolve(spawn);
        };
        const waiter: Waiter = { pluginId, give: finish };
        const onAbort = () => finish(null);
        const timer = setTimeout(() => finish(null), holdMs);
        signal?.addEventListener('abort', onAbort);
        waiters.push(waiter);
        handOut();
        if (arrived) for (const listener of attachListeners) listener(pluginId);
      });
    },

    /**
     * Calls `listener` each time a plugin attaches (its first long-poll, or one after the grace); returns the
     * unsubscribe.
     */
    onAttach(listener: (pluginId: string) => void): () => void {
      attachListeners.add(listener);
      return () => void attachListeners.delete(listener);
    },

    /** Puts back a spawn whose long-poll connection died as it was handed out. */
    requeue(spawn: Spawn): void {
      if (!open.has(spawn.id)) return;
      queued.unshift(spawn);
      arm(spawn);
      handOut();
    },

    /** Records a result; a repeated result for a settled spawn is `already` (idempotent). */
    settle,

    /**
     * Ends spawn `id`: one still queued is settled at once (`run_stopped`); one a plugin runs is
     * asked to stop (`waitStop`), and settled as `stop_timeout` if the plugin does not report its
     * end within the pickup timeout. False when the spawn is not open.
     */
    stop(id: string): boolean {
      if (!open.has(id)) return false;
      if (queued.some((spawn) => spawn.id === id))
        return (
          settle(id, {
            ok: false,
            reason: 'run_stopped',
            error: `Spawn ${id} was stopped before a plugin took it.`,
          }) === 'settled'
        );
      stops.request(id);
      return true;
    },

    /** True while spawn `id` was asked to stop and its end is not reported yet. */
    stopping: (id: string) => open.has(id) && stops.isRequested(id),

    /**
     * A plugin's wait on spawn `id`: `stop` once it should end, `running` after `holdMs`, `unknown` for a spawn that is
     * not open.
     */
    async waitStop(id: string, holdMs: number, signal?: AbortSignal): Promise<'stop' | 'running' | 'unknown'> {
      if (!open.has(id)) return 'unknown';
      return (await stops.wait(id, holdMs, signal)) && open.has(id) ? 'stop' : open.has(id) ? 'running' : 'unknown';
    },

    /** Plugins holding a long-poll now, or within the grace after their last one. */
    attached(): AttachedPlugin[] {
      const now = clock().getTime();
      return [...plugins.values()]
        .filter((p) => isAttached(p, now, graceMs))
        .map((p) => ({ id: p.id, since: p.since }));
    },

    /** Spawns waiting for a plugin. */
    size: () => queued.length,

    /** Releases every long-poll (null) and fails every open spawn with `daemon_stopped`. */
    close(): void {
      for (const waiter of [...waiters]) waiter.give(null);
      for (const id of [...open.keys()])
        settle(id, { ok: false, reason: 'daemon_stopped', error: 'The svc daemon stopped before the spawn finished.' });
    },
  };
}

// --- internal ---

interface Waiter {
  pluginId: string;
  give(spawn: Spawn | null): void;
}

interface PluginState {
  id: string;
  since: string;
  polls: number;
  lastSeenMs: number;
}

const SETTLED_KEPT = 1000;

function isAttached(plugin: PluginState | undefined, nowMs: number, graceMs: number): boolean {
  return plugin !== undefined && (plugin.polls > 0 || nowMs - plugin.lastSeenMs <= graceMs);
}

function attach(
  plugins: Map<string, PluginState>,
  id: string,
  { now, graceMs }: { now: Date; graceMs: number },
): PluginState {
  let plugin = plugins.get(id);
  if (!plugin || (plugin.polls === 0 && now.getTime() - plugin.lastSeenMs > graceMs)) {
    plugin = { id, since: now.toISOString(), polls: 0, lastSeenMs: now.getTime() };
    plugins.set(id, plugin);
  }
  plugin.polls++;
  return plugin;
}

function remember(settled: Map<string, SpawnResult>, id: string, result: SpawnResult): void {
  settled.set(id, result);
  if (settled.size > SETTLED_KEPT) settled.delete(settled.keys().next().value!);
}
