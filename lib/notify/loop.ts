import { describeError } from '../core/errors.js';
import { formatDuration } from '../core/time/clock.js';
import type { Subscription } from '../org/schema.js';
import { deliver } from './delivery.js';
import { backoffMs } from './limits.js';
import type { DeliveryLoop, DeliveryOutcome, LaneStats, LoopOptions } from './types.js';
import { moveToFailed, type OutboxEntry, removeEntry, writeEntry } from './outbox.js';
import { syncOutbox } from './sync.js';

/** How often a subscription a 410 disabled, or one gone from the chart, is looked at again. */
const RECHECK_MS = 5_000;

/** How often the outbox is read again for deliveries other processes wrote or removed. */
const RESCAN_MS = 5_000;

/** How long a delivery whose subscription left the org chart waits for it to come back (the default give-up). */
const ORPHAN_GIVE_UP_MS = 86_400_000;

export function createDeliveryLoop(o: LoopOptions): DeliveryLoop {
  const pending = new Map<string, OutboxEntry>();
  const failed = new Map<string, string>();
  const stats = new Map<string, LaneStats>();
  const busy = new Set<string>();
  const flying = new Map<string, number>();
  const running = new Set<Promise<void>>();
  const abort = new AbortController();
  let started = false;
  let kickOnStart = false;
  let timer: NodeJS.Timeout | undefined;
  let rescan: NodeJS.Timeout | undefined;
  let syncing: Promise<void> = Promise.resolve();
  const sync = () => {
    syncing = syncing
      .then(() => syncOutbox(o.paths, { pending, failed, busy }))
      .catch((err) => o.log(`notify: cannot read data/outbox/: ${describeError(err)}`));
    return syncing;
  };
  const dueNow = () => {
    const now = o.clock().toISOString();
    for (const [id, entry] of pending) {
      if (entry.nextAttemptAt > now) pending.set(id, { ...entry, nextAttemptAt: now });
    }
  };

  const statOf = (id: string) => {
    let stat = stats.get(id);
    if (!stat) stats.set(id, (stat = { lastOutcome: null, lastError: null, consecutiveFailures: 0 }));
    return stat;
  };
  const tell = (entry: OutboxEntry, outcome: DeliveryOutcome['outcome'], extra: { error?: string; ms: number }) => {
    const { subscription, deliveryId } = entry.notification;
    const stat = statOf(subscription);
    stat.lastOutcome = outcome;
    if (outcome === 'delivered') stat.consecutiveFailures = 0;
    else {
      stat.consecutiveFailures++;
      stat.lastError = extra.error ?? null;
    }
    o.onOutcome({ subscription, deliveryId, outcome, ...extra });
  };

  const giveUp = async (entry: OutboxEntry, why: { error: string; ms: number }) => {
    const { deliveryId, subscription, event } = entry.notification;
    await moveToFailed(o.paths, { ...entry, lastError: why.error, failedAt: o.clock().toISOString() });
    pending.delete(deliveryId);
    failed.set(deliveryId, subscription);
    o.log(
      `notify: delivery ${deliveryId} of ${event.type} to ${subscription} failed after ${entry.attempts} attempt(s) ` +
        `over ${formatDuration(o.clock().getTime() - Date.parse(entry.retriedAt ?? entry.createdAt))}: ${why.error}; ` +
        `kept in data/outbox/failed/ (svc notify retry ${deliveryId} sends it again)`,
    );
    tell(entry, 'failed', why);
  };

  const attempt = async (entry: OutboxEntry, sub: Subscription | undefined) => {
    const started = Date.now();
    const { deliveryId, subscription } = entry.notification;
    if (!sub) return giveUp(entry, { error: `subscription ${subscription} is no longer in the org chart`, ms: 0 });
    const result = await deliver(entry.notification, sub, { env: o.env(), signal: abort.signal });
    const ms = Date.now() - started;
    if (result.ok) {
      await removeEntry(o.paths, deliveryId);
      pending.delete(deliveryId);
      return tell(entry, 'delivered', { ms });
    }
    if (abort.signal.aborted) return; // stopped: the delivery stays as it was, attempted again after a start
    const error = result.error ?? 'failed';
    const now = o.clock();
    const tried: OutboxEntry = { ...entry, attempts: entry.attempts + 1, lastError: error };
    if (result.status === 410) {
      await writeEntry(o.paths, tried);
      pending.set(deliveryId, tried);
      await o.disable(subscription, error);
      return tell(tried, 'disabled', { error, ms });
    }
    if (now.getTime() - Date.parse(entry.retriedAt ?? entry.createdAt) >= sub.retry.giveUpAfterMs) {
      return giveUp(tried, { error, ms });
    }
    const next = new Date(now.getTime() + backoffMs(tried.attempts, sub.retry, o.random)).toISOString();
    const retrying: OutboxEntry = { ...tried, nextAttemptAt: next };
    await writeEntry(o.paths, retrying);
    pending.set(deliveryId, retrying);
    tell(retrying, 'retrying', { error, ms });
  };

  const launch = (entry: OutboxEntry, sub: Subscription | undefined) => {
    const { deliveryId, subscription } = entry.notification;
    busy.add(deliveryId);
    flying.set(subscription, (flying.get(subscription) ?? 0) + 1);
    const run: Promise<void> = attempt(entry, sub)
      .catch((err) => {
        // its outcome could not be written (a full disk): tried again later, never in a tight loop
        o.log(`notify: delivery ${deliveryId} to ${subscription}: ${describeError(err)}`);
        const now = pending.get(deliveryId);
        const later = new Date(o.clock().getTime() + RECHECK_MS).toISOString();
        if (now) pending.set(deliveryId, { ...now, nextAttemptAt: later });
      })
      .finally(() => {
        busy.delete(deliveryId);
        flying.set(subscription, (flying.get(subscription) ?? 1) - 1);
        running.delete(run);
        pump();
      });
    running.add(run);
  };

  const pump = () => {
    if (!started || abort.signal.aborted) return;
    clearTimeout(timer);
    const now = o.clock().getTime();
    const subs = new Map(o.subscriptions().map((sub) => [sub.id, sub]));
    let next = Number.POSITIVE_INFINITY;
    const due = [...pending.values()].sort((a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt));
    for (const entry of due) {
      const { deliveryId, subscription } = entry.notification;
      if (busy.has(deliveryId)) continue;
      if (o.isDisabled(subscription)) {
        next = Math.min(next, now + RECHECK_MS);
        continue;
      }
      const at = Date.parse(entry.nextAttemptAt);
      if (at > now) {
        next = Math.min(next, at);
        continue;
      }
      const sub = subs.get(subscription);
      if (!sub && now - Date.parse(entry.retriedAt ?? entry.createdAt) < ORPHAN_GIVE_UP_MS) {
        // not in the org chart now (edited, or not loaded yet): it waits, as the chart may bring it back
        next = Math.min(next, now + RECHECK_MS);
        continue;
      }
      if ((flying.get(subscription) ?? 0) >= (sub?.maxInFlight ?? 1)) continue; // woken when one ends
      launch(entry, sub);
    }
    if (next !== Number.POSITIVE_INFINITY) {
      timer = setTimeout(pump, Math.max(0, next - now));
      timer.unref();
    }
  };

  return {
    pending,
    failed,
    stats,
    async start() {
      await sync();
      if (abort.signal.aborted) return;
      started = true;
      rescan = setInterval(() => void sync().then(pump), RESCAN_MS);
      rescan.unref();
      if (kickOnStart) this.kick();
      else pump();
    },
    kick() {
      if (!started) {
        kickOnStart = true;
        return;
      }
      dueNow();
      pump();
      void sync().then(() => {
        dueNow();
        pump();
      });
    },
    put(entry) {
      pending.set(entry.notification.deliveryId, entry);
      pump();
    },
    pump,
    async stop() {
      abort.abort();
      clearTimeout(timer);
      clearInterval(rescan);
      await Promise.allSettled([...running]);
    },
  };
}
