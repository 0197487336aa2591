/**
 * Stop requests of plugin runs: the daemon asks, the plugin long-polls `GET /v1/spawns/{id}/stop` and ends the gateway
 * run.
 */
export type SpawnStops = ReturnType<typeof createSpawnStops>;

/**
 * Keeps which handed-out spawns the daemon wants ended (their lease expired or their task was
 * cancelled) and wakes the plugin's waits on them. A stop the plugin does not answer with the
 * run's result within `timeoutMs` gives up on it through `onTimeout`, so a task never waits forever
 * on a gateway that went away.
 */
export function createSpawnStops(timeoutMs: number, onTimeout: (id: string) => void) {
  const requested = new Map<string, NodeJS.Timeout>();
  const waiters = new Map<string, Set<() => void>>();
  return {
    /** Asks for spawn `id` to end; true the first time. */
    request(id: string): boolean {
      if (requested.has(id)) return false;
      const timer = setTimeout(() => onTimeout(id), timeoutMs);
      timer.unref();
      requested.set(id, timer);
      for (const wake of waiters.get(id) ?? []) wake();
      return true;
    },
    isRequested: (id: string) => requested.has(id),
    /** Resolves true once a stop of `id` is requested, false after `ms` (or when `signal` aborts). */
    wait(id: string, ms: number, signal?: AbortSignal): Promise<boolean> {
      if (requested.has(id)) return Promise.resolve(true);
      return new Promise((resolve) => {
        const set = waiters.get(id) ?? new Set<() => void>();
        waiters.set(id, set);
        const finish = (outcome: 'stop' | 'no-stop') => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          set.delete(wake);
          if (!set.size) waiters.delete(id);
          resolve(outcome === 'stop');
        };
        const wake = () => finish('stop');
        const onAbort = () => finish('no-stop');
        const timer = setTimeout(() => finish('no-stop'), ms);
        signal?.addEventListener('abort', onAbort);
        set.add(wake);
      });
    },
    /** The spawn ended (its result came): nothing more to wait for. */
    forget(id: string): void {
      clearTimeout(requested.get(id));
      requested.delete(id);
      for (const wake of waiters.get(id) ?? []) wake();
    },
  };
}
