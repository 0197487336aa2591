import type { ServerResponse } from 'node:http';
import { SvcError } from '../core/errors.js';
import { DEFAULT_LIMITS, type ServerLimits } from '../daemon/http/limits.js';

/**
 * The board's connection limits (docs/web-board.md, "Security"): a request head must arrive within
 * 2 s (a browser sends it at once; a client that holds heads open is cut off fast), and past 512
 * connections the longest-idle or slowest-arriving one is closed for the newcomer, so connections
 * nobody authenticated never crowd out the operator's page.
 */
export const WEB_LIMITS: Readonly<ServerLimits> = Object.freeze({
  ...DEFAULT_LIMITS,
  headersMs: 2_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  maxConnections: 512,
  checkIntervalMs: 500,
});

/** Event streams open at once on one board (its one token); more are answered 429. */
export const MAX_STREAMS = 64;

/** Counts a board's open event streams (the board and the task logs) against `max`. */
export interface StreamBudget {
  /** Takes a place for the stream answered by `res` (freed when it closes), or throws `busy`. */
  take(res: ServerResponse): void;
  open(): number;
}

/**
 * The budget of a board's event streams: each holds a connection for as long as its page is open,
 * so past `max` a new one is refused (429) rather than letting the streams fill every connection:
 * the page, its JSON and its actions are always answered.
 */
export function createStreamBudget(max = MAX_STREAMS): StreamBudget {
  let open = 0;
  return {
    take(res) {
      if (open >= max) {
        res.setHeader('retry-after', '5');
        throw new SvcError(
          'busy',
          `The web board has ${open} event streams open, its limit.`,
          'Close board pages you no longer watch (each open page holds one stream); this one retries on reload.',
        );
      }
      open++;
      res.once('close', () => void open--);
    },
    open: () => open,
  };
}
