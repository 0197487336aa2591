/**
 * A counter of task changes that a long-poll can wait on (`GET /v1/tasks/changes`, for `svc board
 * --watch`), and that tells listeners (the web board's feed) which tasks changed.
 */
export interface ChangeFeed {
  /**
   * Counts one change (a task appeared, moved, changed or went away, or the daemon committed a change)
   * and wakes the waiters; `ids` are the tasks it touched (absent: unknown, a listener re-reads all).
   */
  bump(ids?: readonly string[]): void;
  version(): number;
  /**
   * Resolves with the version once it is past `after`, after `waitMs`, on `signal`, or at `close`, whichever comes
   * first.
   */
  wait(after: number, waitMs: number, signal?: AbortSignal): Promise<number>;
  /** Calls `listener` with the ids of each bump (null: unknown which) at once; returns its removal. */
  listen(listener: (ids: readonly string[] | null) => void): () => void;
  /** Wakes every waiter for good (the daemon is stopping). */
  close(): void;
}

/** Creates an empty change feed (version 0). */
export function createChangeFeed(): ChangeFeed {
  let version = 0;
  let closed = false;
  const waiters = new Set<() => void>();
  const listeners = new Set<(ids: readonly string[] | null) => void>();
  const wakeAll = () => {
    for (const wake of [...waiters]) wake();
  };
  return {
    bump(ids) {
      version++;
      wakeAll();
      for (const listener of listeners) listener(ids ?? null);
    },
    version: () => version,
    wait(after, waitMs, signal) {
      if (version > after || closed || signal?.aborted) return Promise.resolve(version);
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve(version);
        };
        const timer = setTimeout(done, waitMs);
        waiters.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close() {
      closed = true;
      listeners.clear();
      wakeAll();
    },
  };
}
