import { SpawnError, type Adapter, type RunEnd, type SpawnRun } from '../core/spawn.js';
import type { SpawnQueue } from './spawn-queue.js';

/**
 * The plugin bridge: a spawn waits in the queue until an attached plugin takes it with
 * `GET /v1/spawns/wait` (handed), and its run ends with `POST /v1/spawns/{id}/result`. A spawn no
 * plugin takes within the pickup timeout is a failed dispatch (`spawn_timeout`).
 */
export function createPluginAdapter(spawns: SpawnQueue): Adapter {
  return {
    kind: 'plugin',
    spawn(request) {
      return new Promise<SpawnRun>((resolve, reject) => {
        let taken = false;
        const result = spawns.enqueue(request, {
          onTaken: () => {
            taken = true;
            // May run inside enqueue() (a plugin was already waiting), before `result` is assigned.
            queueMicrotask(() => resolve({ ended: result.then((r): RunEnd => ({ ok: r.ok, ...(r.reason ? { reason: r.reason } : {}), ...(r.error ? { error: r.error } : {}) })) }));
          },
        });
        void result.then((r) => {
          if (!taken) reject(new SpawnError(r.reason ?? 'spawn_failed', r.error ?? `spawn ${request.id} ended before a plugin took it`));
        });
      });
    },
  };
}
