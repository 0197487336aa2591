import { WATCHDOG_CRITICAL } from '../org/notify.js';
import { type Subscription, SubscriptionSchema } from '../org/schema.js';

/** The id of the subscription the watchdog's `alerting.webhook` makes. */
export const WATCHDOG_SUBSCRIPTION = 'watchdog';

/**
 * The subscription of `aof.daemon.watchdog.alerting.webhook`: its critical report as svc's `json`, with a
 * subscription's defaults for retries and timeouts and no coalescing (docs/notifications.md, "The watchdog").
 */
export function watchdogSubscription(webhook: string): Subscription {
  return SubscriptionSchema.parse({
    id: WATCHDOG_SUBSCRIPTION,
    webhook,
    events: [WATCHDOG_CRITICAL],
    coalesceMs: 0,
  });
}
