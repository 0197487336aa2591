import { SpawnError, toSessionKey, type Adapter, type RunEnd, type SpawnRun } from '../../core/spawn.js';
import type { SpawnQueue } from './spawn-queue.js';

/** The plugin bridge, with what the daemon needs to end runs. */
export interface PluginAdapter extends Adapter {
  /** An `agent-end`/`session-end` event naming a running spawn's session key ends that run. */
  endSession(sessionKey: string, spawnId?: string): boolean;
  /**
   * Asks the plugin to end the runs of `taskId` but `keep` (a session: the spawn id); returns the spawn ids newly
   * asked.
   */
  stop(taskId: string, keep?: string): string[];
  /** Spawns of `taskId` whose end is not reported yet, and whether they were asked to end. */
  runsOf(taskId: string): { id: string; stopping: boolean }[];
}

/**
 * The plugin bridge: a spawn waits in the queue until an attached plugin takes it with
 * `GET /v1/spawns/wait` (handed), and its run ends with `POST /v1/spawns/{id}/result`, or with an
 * `agent-end`/`session-end` event naming its session key, whichever comes first. A spawn no
 * plugin takes within the pickup timeout is a failed dispatch (`spawn_timeout`).
 */
export function createPluginAdapter(spawns: SpawnQueue): PluginAdapter {
  // session key -> spawn id; keys compared lowercased, as the gateway folds session keys to lower case
  const running = new Map<string, string>();
  const ofTask = (taskId: string) =>
    [...running].filter(([key]) => key.endsWith(`:svc-${taskId.toLowerCase()}`)).map(([, id]) => id);
  return {
    kind: 'plugin',
    stop: (taskId, keep) => ofTask(taskId).filter((id) => id !== keep && !spawns.stopping(id) && spawns.stop(id)),
    runsOf: (taskId) => ofTask(taskId).map((id) => ({ id, stopping: spawns.stopping(id) })),
    /**
     * An agent-end or session-end event: the run of that session is over (idempotent with the result).
     * An event naming another spawn (a late event of an earlier run in the same session) ends nothing.
     */
    endSession(sessionKey, spawnId) {
      const id = running.get(sessionKey.toLowerCase());
      if (!id || (spawnId !== undefined && spawnId !== id)) return false;
      return spawns.settle(id, { ok: true, sessionKey }) === 'settled';
    },
    spawn(request) {
      const key = toSessionKey(request.agent, request.taskId).toLowerCase();
      running.set(key, request.id);
      return new Promise<SpawnRun>((resolve, reject) => {
        let taken = false;
        const result = spawns.enqueue(request, {
          onTaken: () => {
            taken = true;
            // May run inside enqueue() (a plugin was already waiting), before `result` is assigned.
            queueMicrotask(() =>
              resolve({
                ended: result.then(
                  (r): RunEnd => ({
                    ok: r.ok,
                    ...(r.reason ? { reason: r.reason } : {}),
                    ...(r.error ? { error: r.error } : {}),
                  }),
                ),
              }),
            );
          },
        });
        void result.then((r) => {
          if (running.get(key) === request.id) running.delete(key);
          if (!taken)
            reject(
              new SpawnError(
                r.reason ?? 'spawn_failed',
                r.error ?? `spawn ${request.id} ended before a plugin took it`,
              ),
            );
        });
      });
    },
  };
}
