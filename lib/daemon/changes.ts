/** A counter of task changes that a long-poll can wait on (`GET /v1/tasks/changes`, for `svc board --watch`). */
export interface ChangeFeed {
  /** Counts one change (a task appeared, moved or went away, or the daemon committed a change) and wakes the waiters. */
  bump(): void;
  version(): number;
  /** Resolves with the version once it is past `after`, after `waitMs`, on `signal`, or at `close`, whichever comes first. */
  wait(after: number, waitMs: number, signal?: AbortSignal): Promise<number>;
  /** Wakes every waiter for good (the daemon is stopping). */
  close(): void;
}

/** Creates an empty change feed (version 0). */
export function createChangeFeed(): ChangeFeed {
  let version = 0;
  let closed = false;
  const waiters = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...waiters]) wake();
  };
  return {
    bump() {
      version++;
      wakeAll();
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
    close() {
      closed = true;
      wakeAll();
    },
  };
}
