import { Counter, Gauge, type Registry } from 'prom-client';

/** The outcomes of a delivery attempt, every one of them a label value from the start. */
const OUTCOMES = ['delivered', 'retrying', 'failed', 'disabled'] as const;

/** What the notification gauges read at each scrape: the outbox's depth (null: no notifier yet). */
export interface NotifyMetricSource {
  depth(): { pending: number; failed: number; oldestPendingMs: number | null } | null;
}

/** The notification counters of a daemon. */
export interface NotifyMetrics {
  /** One attempt's outcome (docs/notifications.md, "Delivery"). */
  onOutcome(outcome: { subscription: string; outcome: (typeof OUTCOMES)[number] }): void;
}

/**
 * Registers `svc_notify_deliveries_total{subscription,outcome}`, `svc_notify_outbox_depth{state}` (pending,
 * failed) and `svc_notify_oldest_pending_seconds` (docs/metrics.md).
 */
export function registerNotifyMetrics(registry: Registry, source: NotifyMetricSource): NotifyMetrics {
  const registers = [registry];
  const deliveries = new Counter({
    name: 'svc_notify_deliveries_total',
    help: 'Delivery attempts of notifications, by subscription and outcome.',
    labelNames: ['subscription', 'outcome'],
    registers,
  });
  new Gauge({
    name: 'svc_notify_outbox_depth',
    help: 'Notifications in data/outbox/: pending (to be delivered) and failed (given up, in failed/).',
    labelNames: ['state'],
    registers,
    collect() {
      const depth = source.depth();
      this.set({ state: 'pending' }, depth?.pending ?? 0);
      this.set({ state: 'failed' }, depth?.failed ?? 0);
    },
  });
  new Gauge({
    name: 'svc_notify_oldest_pending_seconds',
    help: 'Age of the oldest pending notification in seconds (0 when none is pending).',
    registers,
    collect() {
      this.set((source.depth()?.oldestPendingMs ?? 0) / 1000);
    },
  });
  return {
    onOutcome({ subscription, outcome }) {
      deliveries.inc({ subscription, outcome });
    },
  };
}
