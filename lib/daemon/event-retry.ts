import type { EventLog } from '../store/events/log.js';
import type { DaemonLog } from './instance/log.js';
import { describeError } from '../core/errors.js';

/** Options of `createEventRetry`. */
export interface EventRetryOptions {
  events: EventLog;
  /** The daemon's log, once it is open. */
  log: () => DaemonLog | undefined;
  /** How often pending lines are retried (1 s). */
  everyMs?: number;
}

/** The daemon's side of the event log: failures logged once per outage, pending lines retried. */
export interface EventRetry {
  /** The store's `onEventError`. */
  onError(err: unknown, pending: number): void;
  /**
   * Stops retrying after a last attempt; what is still pending is written to the spool (unless
   * `spool` is false, as for a daemon whose data/ was removed), for the next svc process to append.
   */
  close(options?: { spool?: boolean }): Promise<void>;
}

/**
 * Keeps the event log whole across an outage (a full disk, an unwritable `data/events/`): the
 * change that could not log its events has happened and was reported so; its lines are retried
 * every `everyMs` until they are written, and the outage is logged as a daemon error once. Each
 * retry with nothing pending merges the spool (lines that a command or an earlier daemon spooled).
 */
export function createEventRetry(options: EventRetryOptions): EventRetry {
  const { events, log } = options;
  let failing = false;
  const retry = async () => {
    if (events.pending() > 0) await events.flush();
    else await events.mergeSpool(); // lines a command or an earlier daemon could not append
    if (failing && events.pending() === 0) {
      failing = false;
      log()?.info('events.recovered', {
        message: 'the event log is writable again; the pending events were appended',
        dropped: events.dropped(),
      });
    }
  };
  const timer = setInterval(() => void retry(), options.everyMs ?? 1000);
  timer.unref();
  return {
    onError(err, pending) {
      if (failing) return;
      failing = true;
      const message = describeError(err);
      log()?.error('events.append_failed', {
        message: `events of committed changes could not be appended (kept in memory and retried): ${message}`,
        pending,
      });
    },
    async close({ spool = true } = {}) {
      clearInterval(timer);
      await retry();
      const pending = events.pending();
      if (pending === 0 || !spool) return;
      try {
        const file = await events.spoolPending();
        log()?.warn('events.spooled', {
          message: `events not yet appended were kept in ${file}; the next svc command or daemon appends them`,
          pending,
        });
      } catch (err) {
        log()?.error('events.lost', {
          message: `events not yet appended could not be spooled either: ${describeError(err)}`,
          pending,
        });
      }
    },
  };
}
