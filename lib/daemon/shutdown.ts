import type { Server } from 'node:http';

/** Counts the requests being answered, so a stop can wait for them. */
export interface RequestTracker {
  count(): number;
  /** Resolves when no request is in flight, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void>;
}

/** Tracks the requests of `server` from arrival until their response is finished or aborted. */
export function trackRequests(server: Server): RequestTracker {
  let active = 0;
  let waiters: (() => void)[] = [];
  server.on('request', (_req, res) => {
    active++;
    res.once('close', () => {
      active--;
      if (active === 0) for (const wake of waiters.splice(0)) wake();
    });
  });
  return {
    count: () => active,
    drained(timeoutMs) {
      if (active === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        function done() {
          clearTimeout(timer);
          waiters = waiters.filter((wake) => wake !== done);
          resolve();
        }
        waiters.push(done);
      });
    },
  };
}

/** Stops listening, closes idle keep-alive connections at once and any other after `graceMs`. */
export function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Traps SIGTERM and SIGINT from the first instant of a start, so a signal during the start is not
 * fatal: it stops the daemon as soon as it is up.
 */
export function trapSignals(): { onStop(stop: () => void): void; remove(): void } {
  let requested = false;
  let stopper: (() => void) | null = null;
  const handler = () => {
    requested = true;
    stopper?.();
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return {
    onStop(stop) {
      stopper = stop;
      if (requested) stop();
    },
    remove() {
      process.off('SIGTERM', handler);
      process.off('SIGINT', handler);
    },
  };
}
