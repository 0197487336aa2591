import type { SvcEvent } from '../core/events.js';
import type { Clock } from '../core/time/clock.js';
import type { Subscription } from '../org/schema.js';
import type { Paths } from '../store/disk/paths.js';
import type { NotifyTask, OfferedEvent } from './notification.js';
import type { OutboxEntry } from './outbox.js';

/** The outcome of one attempt, for metrics and the log. */
export interface DeliveryOutcome {
  subscription: string;
  deliveryId: string;
  outcome: 'delivered' | 'retrying' | 'failed' | 'disabled';
  error?: string;
  ms: number;
}

/** What a notifier needs: the outbox's root, the subscriptions and the chart's key, the environment, the clock. */
export interface NotifierOptions {
  paths: Paths;
  subscriptions: () => readonly Subscription[];
  /** Changes when the org chart changes: a subscription a 410 disabled is enabled again. */
  chartKey: () => string;
  /** For `secretEnv`: the daemon's environment and `data/daemon.env`. */
  env: () => NodeJS.ProcessEnv;
  clock?: Clock;
  /** The web board's page of a task, when the board is open. */
  boardUrl?: (taskId: string) => string | undefined;
  onOutcome?: (outcome: DeliveryOutcome) => void;
  log?: (line: string) => void;
  /** How long one task's repeats of a rate-limited event (`sla.violation`) stay quiet; default 15 minutes. */
  rateLimitMs?: (event: OfferedEvent, task: NotifyTask | undefined) => number;
  /** The jitter's random numbers in [0, 1) (default Math.random). */
  random?: () => number;
}

/** Where one subscription stands (`svc daemon status`, `svc notify list`). */
export interface SubscriptionStatus {
  id: string;
  kind: 'webhook' | 'command';
  lastOutcome: DeliveryOutcome['outcome'] | null;
  lastError: string | null;
  consecutiveFailures: number;
  disabled: boolean;
  pending: number;
  failed: number;
}

/** The result of `svc notify test`. */
export interface TestResult {
  ok: boolean;
  status?: number;
  error?: string;
  ms: number;
}

/** The outbox's depth (`/metrics`). */
export interface OutboxDepth {
  pending: number;
  failed: number;
  oldestPendingMs: number | null;
}

/** Turns events into durable notifications and delivers them (docs/notifications.md). */
export interface Notifier {
  /**
   * Matches the subscriptions and their filters, applies the rate limit and coalescing, and writes each resulting
   * notification to the outbox durably before it resolves; resolves to how many were written.
   */
  offer(event: SvcEvent | OfferedEvent, task?: NotifyTask): Promise<number>;
  /** Begins delivering, first whatever the outbox holds (a restart). */
  start(): void;
  /** Stops attempts; nothing in flight is lost: it stays in the outbox. */
  stop(): Promise<void>;
  /** Attempts every pending delivery now. */
  kick(): void;
  /** Failed (and pending) deliveries back to pending, due now: a delivery id, a subscription id or `all`. */
  retry(which: string | 'all'): Promise<number>;
  status(): SubscriptionStatus[];
  /** Sends a sample notification to one subscription now, outside the outbox. */
  sendTest(subscriptionId: string): Promise<TestResult>;
  depth(): OutboxDepth;
}

/** What the delivery loop reads and whom it tells. */
export interface LoopOptions {
  paths: Paths;
  clock: Clock;
  random: () => number;
  env: () => NodeJS.ProcessEnv;
  subscriptions: () => readonly Subscription[];
  isDisabled: (subscription: string) => boolean;
  /** A 410: the subscription is disabled until the org chart changes. */
  disable: (subscription: string, reason: string) => Promise<void>;
  onOutcome: (outcome: DeliveryOutcome) => void;
  log: (line: string) => void;
}

/** How one subscription's deliveries went lately. */
export interface LaneStats {
  lastOutcome: DeliveryOutcome['outcome'] | null;
  lastError: string | null;
  consecutiveFailures: number;
}

/**
 * The deliveries of the outbox and their attempts: each due delivery is attempted while its subscription has fewer
 * than `maxInFlight` attempts running, so subscriptions never wait on each other; one timer wakes the loop at the next
 * delivery due. Every outcome is on disk before the next attempt of the same delivery.
 */
export interface DeliveryLoop {
  readonly pending: Map<string, OutboxEntry>;
  /** Failed deliveries: their subscription by delivery id. */
  readonly failed: Map<string, string>;
  readonly stats: Map<string, LaneStats>;
  /**
   * Reads the outbox (a restart's pending deliveries), then delivers; reads it again every few seconds for what other
   * processes wrote (and at each `kick`).
   */
  start(): Promise<void>;
  /** A delivery written to the outbox (new, or put back), attempted when due. */
  put(entry: OutboxEntry): void;
  /** Attempts what is due now. */
  pump(): void;
  /** Makes every pending delivery due now (those still being read at a start too), then attempts them. */
  kick(): void;
  /** Stops attempting; attempts running are abandoned and their deliveries stay in the outbox as they are. */
  stop(): Promise<void>;
}
