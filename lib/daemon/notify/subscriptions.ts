import { createHash } from 'node:crypto';
import { SvcError } from '../../core/errors.js';
import { toDidYouMean } from '../../core/suggest.js';
import { toTerminalText } from '../../core/text.js';
import { WATCHDOG_SUBSCRIPTION, watchdogSubscription } from '../../notify/watchdog.js';
import { NOTIFY_FORMATS, type OrgChart, type Subscription } from '../../org/schema.js';

/**
 * The subscriptions of a chart: `aof.notify`, and `aof.daemon.watchdog.alerting.webhook` as one more that takes
 * `watchdog.critical` (id `watchdog`; its format the `channel` when that names a format, else json). A chart's own
 * subscription of the same id wins.
 */
export function toSubscriptions(chart: OrgChart | null): Subscription[] {
  const own = [...(chart?.aof.notify ?? [])];
  const alerting = chart?.aof.daemon.watchdog.alerting;
  if (!alerting?.webhook || own.some((s) => s.id === WATCHDOG_SUBSCRIPTION)) return own;
  const channel = NOTIFY_FORMATS.find((format) => format === alerting.channel);
  return [...own, { ...watchdogSubscription(alerting.webhook), ...(channel ? { format: channel } : {}) }];
}

/** A key that changes when the subscriptions change (a subscription a 410 disabled is enabled again then). */
export function toChartKey(subscriptions: readonly Subscription[]): string {
  return createHash('sha256').update(JSON.stringify(subscriptions)).digest('hex').slice(0, 16);
}

/** The subscription of that id; `not_found` naming the ones there are (and the closest) otherwise. */
export function findSubscription(subscriptions: readonly Subscription[], id: string): Subscription {
  const found = subscriptions.find((s) => s.id === id);
  if (found) return found;
  const ids = subscriptions.map((s) => s.id);
  throw new SvcError(
    'not_found',
    `No subscription ${JSON.stringify(toTerminalText(id))} in aof.notify.${toDidYouMean(id, ids)}`,
    ids.length
      ? `Subscriptions: ${ids.join(', ')}.`
      : 'The org chart has none: add one under aof.notify (docs/notifications.md, "Subscriptions").',
  );
}
