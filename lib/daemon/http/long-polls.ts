import type { ServerResponse } from 'node:http';
import { SvcError } from '../../core/errors.js';
import { ROUTES, toRouteLabel } from '../../net/protocol/routes.js';
import { RETRY_AFTER_S, type ServerLimits } from './limits.js';

/** A count of long-polls held at once on one route, with a ceiling. */
export interface LongPollBudget {
  /** Long-polls held now. */
  held(): number;
  /**
   * Takes a place for a long-poll answered on `res`, given back when `res` closes; past the
   * ceiling throws `busy` (429) with a `Retry-After` header, so the client is answered at once.
   */
  take(res: ServerResponse): void;
}

/** The long-poll routes' budgets: their own, apart from ordinary requests and `/healthz`. */
export interface LongPollBudgets {
  changes: LongPollBudget;
  spawns: LongPollBudget;
}

/** The budgets of `limits`. */
export function toLongPollBudgets(limits: ServerLimits): LongPollBudgets {
  return {
    changes: createLongPollBudget(toRouteLabel(ROUTES.taskChanges), limits.maxChangeWaits),
    spawns: createLongPollBudget(toRouteLabel(ROUTES.spawnWait), limits.maxSpawnWaits),
  };
}

/** A budget of `max` long-polls on `route` (named in the error). */
export function createLongPollBudget(route: string, max: number): LongPollBudget {
  let held = 0;
  return {
    held: () => held,
    take(res) {
      if (held >= max) {
        res.setHeader('retry-after', String(RETRY_AFTER_S));
        throw new SvcError(
          'busy',
          `${route} already holds ${held} long-polls, its limit; this one is not held.`,
          `Ask again after ${RETRY_AFTER_S} s (the Retry-After header); fewer clients waiting at once leave room.`,
        );
      }
      held++;
      res.once('close', () => void held--);
    },
  };
}
