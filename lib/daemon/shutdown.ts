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
 * A second SIGTERM or SIGINT this soon after the first stops the daemon at once: the first starts
 * the graceful drain; a second within this window (an operator pressing Ctrl-C twice, a supervisor
 * that lost patience) skips it.
 */
export const FORCE_WINDOW_MS = 5000;

/** The exit code of a forced stop: 128 + the signal's number, as a shell reports a process ended by it. */
export const FORCED_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** The signals a daemon process stops on. */
export type StopSignal = keyof typeof FORCED_EXIT_CODES;

/** The signal handlers of a daemon process, set once at the start; `onStop` and `onForce` are told when they fire. */
export interface SignalTrap {
  /** The graceful stop, called on a first signal (at once if one came during the start). */
  onStop(stop: () => void): void;
  /** What a forced stop releases before the process exits (the instance lock, the socket, the pid file). */
  onForce(release: () => Promise<void>): void;
  remove(): void;
}

/**
 * Traps SIGTERM and SIGINT from the first instant of a start, so a signal during the start is not
 * fatal: it stops the daemon as soon as it is up. A second signal within `FORCE_WINDOW_MS` of the
 * first runs the `onForce` release and calls `exit` with `FORCED_EXIT_CODES[signal]`, leaving leased
 * tasks to lease expiry and recovery, as a crash would.
 */
export function trapSignals({ exit }: { exit: (code: number) => void }): SignalTrap {
  let firstAt: number | null = null;
  let forcing = false;
  let stopper: (() => void) | null = null;
  let release = async (): Promise<void> => undefined;
  const handler = (signal: StopSignal) => {
    const now = Date.now();
    if (forcing) return;
    if (firstAt !== null && now - firstAt <= FORCE_WINDOW_MS) {
      forcing = true;
      void release()
        .catch(() => undefined)
        .finally(() => exit(FORCED_EXIT_CODES[signal]));
      return;
    }
    firstAt = now;
    stopper?.();
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return {
    onStop(stop) {
      stopper = stop;
      if (firstAt !== null) stop();
    },
    onForce(next) {
      release = next;
    },
    remove() {
      process.off('SIGTERM', handler);
      process.off('SIGINT', handler);
    },
  };
}
