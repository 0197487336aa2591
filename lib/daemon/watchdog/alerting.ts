import type { Clock } from '../../core/time/clock.js';
import { systemClock } from '../../core/time/clock.js';
import { readEnvFile } from '../../fs/env-file.js';
import { createNotifier } from '../../notify/notifier.js';
import { loadOrg } from '../../org/org-chart.js';
import { WATCHDOG_CRITICAL } from '../../org/notify.js';
import type { OfferedEvent } from '../../notify/notification.js';
import type { Paths } from '../../store/disk/paths.js';
import { toChartKey, toSubscriptions } from '../notify/subscriptions.js';
import type { RestartRecord } from './report.js';

/** What the watchdog delivers when it gives up (docs/notifications.md, "The watchdog"). */
export interface CriticalAlertOptions {
  paths: Paths;
  /** The critical report's lines, as printed. */
  report: readonly string[];
  /** The restart history the report names. */
  history: readonly RestartRecord[];
  maxRestarts: number;
  windowMs: number;
  /** The watchdog's environment (with `data/daemon.env`, where a `secretEnv` is looked up). */
  env: Record<string, string | undefined>;
  /** How long to wait for the deliveries before leaving them to the daemon's next start (2 minutes). */
  waitMs?: number;
  clock?: Clock;
  log?: (line: string) => void;
}

/** How the watchdog's notifications went: how many were written, and how many were delivered before it exits. */
export interface CriticalAlertResult {
  offered: number;
  delivered: number;
  /** Left in `data/outbox/` (retrying or given up): the daemon's notifier delivers them at its next start. */
  left: number;
}

/**
 * Delivers the critical report to `aof.daemon.watchdog.alerting.webhook` and every `aof.notify` subscription of
 * `watchdog.critical`, through the same outbox (`data/outbox/`) and delivery as the daemon's: written durably first,
 * then sent with retries until delivered or `waitMs` passes (the daemon is down: nobody else would send it now).
 */
export async function deliverCriticalReport(options: CriticalAlertOptions): Promise<CriticalAlertResult> {
  const { paths } = options;
  const clock = options.clock ?? systemClock;
  const chart = await loadOrg(paths.root).catch(() => null);
  const subscriptions = toSubscriptions(chart);
  if (!subscriptions.some((s) => s.events.includes('watchdog.critical'))) return { offered: 0, delivered: 0, left: 0 };
  let delivered = 0;
  let settled = 0;
  let wake: () => void = () => undefined;
  const notifier = createNotifier({
    paths,
    subscriptions: () => subscriptions,
    chartKey: () => toChartKey(subscriptions),
    env: () => ({ ...readEnvFile(paths.envFile), ...options.env }),
    clock,
    onOutcome: ({ outcome }) => {
      if (outcome === 'delivered') delivered++;
      if (outcome !== 'retrying') settled++;
      wake();
    },
    ...(options.log ? { log: options.log } : {}),
  });
  const now = clock();
  const event: OfferedEvent = {
    id: `watchdog:${now.toISOString()}`,
    type: WATCHDOG_CRITICAL,
    timestamp: now.toISOString(),
    actor: 'watchdog',
    payload: {
      root: paths.root,
      report: options.report.join('\n'),
      restarts: options.history.filter((r) => /^restart(ed|\s+failed)/.test(r.outcome)).length,
      maxRestarts: options.maxRestarts,
      windowMs: options.windowMs,
      history: options.history.map(({ at, reason, outcome }) => ({ at, reason, outcome })),
    },
  };
  const offered = await notifier.offer(event);
  notifier.start();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, options.waitMs ?? 120_000);
    wake = () => {
      if (settled < offered) return;
      clearTimeout(timer);
      resolve();
    };
    wake();
  });
  await notifier.stop();
  return { offered, delivered, left: offered - delivered };
}
