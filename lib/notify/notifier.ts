import { randomUUID } from 'node:crypto';
import { SvcError } from '../core/errors.js';
import { systemClock } from '../core/time/clock.js';
import type { Subscription } from '../org/schema.js';
import { createCoalescer } from './coalesce.js';
import { composeGathered, composeOne, type Offered } from './compose.js';
import { deliver } from './delivery.js';
import { type Disabled, openLedger } from './limits.js';
import { createDeliveryLoop } from './loop.js';
import { DEFAULT_RATE_LIMIT_MS, RATE_LIMITED, wants } from './match.js';
import { type Notification, type NotifyTask, type OfferedEvent, toNotifyEvent } from './notification.js';
import { type OutboxEntry, outboxDirs, retryOutbox, writeEntry } from './outbox.js';
import type { Notifier, NotifierOptions } from './types.js';

export type {
  DeliveryOutcome,
  Notifier,
  NotifierOptions,
  OutboxDepth,
  SubscriptionStatus,
  TestResult,
} from './types.js';

/**
 * A notifier over `data/outbox/` (docs/notifications.md): `offer` writes what an event means to each subscription
 * that wants it, durably, and returns; delivery runs apart, so a slow or hung receiver never holds up the caller.
 */
export function createNotifier(options: NotifierOptions): Notifier {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? (() => undefined);
  const dirs = outboxDirs(options.paths);
  const disabled = openLedger<Disabled>(dirs.disabled);
  const rates = openLedger<number>(dirs.rates);
  const isDisabled = (id: string) => {
    const entry = disabled.get(id);
    if (!entry) return false;
    if (entry.chartKey === options.chartKey()) return true;
    log(`notify: subscription ${id} is enabled again (the org chart changed since its receiver answered 410 Gone)`);
    void disabled.remove(id).catch((err) => log(`notify: ${dirs.disabled}: ${String(err)}`));
    return false;
  };
  const loop = createDeliveryLoop({
    paths: options.paths,
    clock,
    random: options.random ?? Math.random,
    env: options.env,
    subscriptions: options.subscriptions,
    isDisabled,
    disable: async (id, reason) => {
      if (isDisabled(id)) return;
      await disabled.set(id, { chartKey: options.chartKey(), at: clock().toISOString(), reason });
      log(
        `notify: subscription ${id} is disabled: its receiver answered ${reason}; its deliveries wait in ` +
          'data/outbox/ until the org chart changes (or svc notify retry)',
      );
    },
    onOutcome: options.onOutcome ?? (() => undefined),
    log,
  });
  const write = async (notification: Notification) => {
    const now = clock().toISOString();
    const entry: OutboxEntry = { notification, createdAt: now, attempts: 0, nextAttemptAt: now };
    await writeEntry(options.paths, entry);
    loop.put(entry);
  };
  const coalescer = createCoalescer({
    dir: dirs.coalesce,
    clock,
    log,
    flush: (subscription, gathered) => write(composeGathered(gathered, { subscription, boardUrl: options.boardUrl })),
  });
  const recent = new Map<string, number>();
  /** The rate limit's key of an event that may go (taken at once, so a concurrent offer of it is quiet), or quiet. */
  const rateKey = (sub: Subscription, event: OfferedEvent, task: NotifyTask | undefined) => {
    const taskId = task?.id ?? event.taskId;
    if (!RATE_LIMITED.includes(event.type) || !taskId) return null;
    const key = `${sub.id} ${event.type} ${taskId}`;
    const last = Math.max(recent.get(key) ?? 0, rates.get(key) ?? 0);
    const now = clock().getTime();
    if (now - last < (options.rateLimitMs?.(event, task) ?? DEFAULT_RATE_LIMIT_MS)) return 'quiet';
    recent.set(key, now);
    return key;
  };
  const subscription = (id: string) => {
    const sub = options.subscriptions().find((s) => s.id === id);
    if (sub) return sub;
    const known = options.subscriptions().map((s) => s.id);
    throw new SvcError(
      'not_found',
      `No subscription ${JSON.stringify(id)} in aof.notify.`,
      known.length ? `Known subscriptions: ${known.join(', ')}.` : 'The org chart has no aof.notify subscriptions.',
    );
  };

  return {
    async offer(event, task) {
      const offered: Offered = { event: toNotifyEvent(event), ...(task ? { task } : {}) };
      let written = 0;
      for (const sub of options.subscriptions()) {
        if (!wants(sub, event, task)) continue;
        const limited = rateKey(sub, event, task);
        if (limited === 'quiet') continue;
        const admitted = coalescer.admit(offered, { subscription: sub.id, coalesceMs: sub.coalesceMs });
        if (admitted === 'now') await write(composeOne(offered, { subscription: sub.id, boardUrl: options.boardUrl }));
        else await admitted;
        if (limited) {
          await rates.set(limited, recent.get(limited)!);
          // a week is longer than any rate limit worth having: older times only take room
          const old = clock().getTime() - 7 * 86_400_000;
          await rates.prune((at) => at < old);
          for (const [key, at] of recent) if (at < old) recent.delete(key);
        }
        written++;
      }
      return written;
    },
    start() {
      void coalescer.restore().catch((err) => log(`notify: ${dirs.coalesce}: ${String(err)}`));
      void loop.start().catch((err) => log(`notify: cannot read ${dirs.pending}: ${String(err)}`));
    },
    async stop() {
      await coalescer.stop();
      await loop.stop();
    },
    kick() {
      loop.kick();
    },
    async retry(which) {
      const known = options.subscriptions().map((s) => s.id);
      for (const id of which === 'all' ? known : known.filter((s) => s === which)) {
        if (disabled.get(id)) await disabled.remove(id);
      }
      const back = await retryOutbox(options.paths, { which, now: clock() });
      for (const entry of back) {
        loop.failed.delete(entry.notification.deliveryId);
        loop.put(entry);
      }
      return back.length;
    },
    status() {
      return options.subscriptions().map((sub) => {
        const stat = loop.stats.get(sub.id);
        const pending = [...loop.pending.values()].filter((e) => e.notification.subscription === sub.id).length;
        return {
          id: sub.id,
          kind: sub.command ? 'command' : 'webhook',
          lastOutcome: stat?.lastOutcome ?? null,
          lastError: stat?.lastError ?? null,
          consecutiveFailures: stat?.consecutiveFailures ?? 0,
          disabled: isDisabled(sub.id),
          pending,
          failed: [...loop.failed.values()].filter((id) => id === sub.id).length,
        };
      });
    },
    async sendTest(id) {
      const sub = subscription(id);
      const started = Date.now();
      const result = await deliver(sampleOf(sub.id, clock()), sub, { env: options.env() });
      return { ...result, ms: Date.now() - started };
    },
    depth() {
      let first = Number.POSITIVE_INFINITY;
      for (const entry of loop.pending.values()) first = Math.min(first, Date.parse(entry.createdAt));
      const failed = loop.failed.size;
      const oldest = Number.isFinite(first) ? Math.max(0, clock().getTime() - first) : null;
      return { pending: loop.pending.size, failed, oldestPendingMs: oldest };
    },
  };
}

// --- internal ---

/** The sample `svc notify test` sends: a notification of its own kind, outside the outbox. */
function sampleOf(subscription: string, now: Date): Notification {
  return {
    deliveryId: randomUUID(),
    subscription,
    event: { id: randomUUID(), type: 'notify.test', at: now.toISOString(), payload: {} },
    why: `A test of the subscription ${subscription} (svc notify test): it reaches its receiver.`,
  };
}
