import { Counter, Histogram, type Registry } from 'prom-client';
import type { EventType } from '../../core/events.js';
import type { Clock } from '../../core/time/clock.js';
import type { EventInput } from '../../store/events/log.js';
import type { IndexChange, IndexEntry } from '../../store/index/tasks.js';

/** Where dispatch latencies fall (seconds): from a few milliseconds to minutes of backoff. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** Where check run durations fall (seconds): a lint in a second to a test suite of half an hour. */
const CHECK_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800];

/** Event types counted, and the counter each feeds (docs/metrics.md). */
const COUNTED = {
  'task.dispatched': 'dispatches',
  'dispatch.failed': 'failures',
  'task.deadletter': 'deadletters',
  'lease.expired': 'expiries',
  'sla.violation': 'violations',
  'murmur.review': 'reviews',
} as const satisfies Partial<Record<EventType, string>>;

/** The counters of a daemon, fed from its events, its index and its adapters. */
export interface MetricCounters {
  /** Events this daemon's store recorded. */
  onEvents(events: readonly EventInput[]): void;
  /** A status change the index saw (by anyone: the daemon, a command, a hand). */
  onChange(change: IndexChange): void;
  /** A spawn was handed to an adapter: observes the time since the task landed in ready. */
  onHanded(taskId: string, adapter: string): void;
  /** An append to the event log failed. */
  onAppendFailure(): void;
  /** When the task landed in ready, as far as this daemon knows (ms), else undefined. */
  readySince(id: string): number | undefined;
}

/** Registers the counters and the dispatch latency histogram on `registry`; `ready` are the tasks ready at start. */
export function createMetricCounters(registry: Registry, clock: Clock, ready: Iterable<IndexEntry>): MetricCounters {
  const registers = [registry];
  const counters = {
    dispatches: new Counter({
      name: 'svc_dispatches_total',
      help: 'Leases granted for a dispatch by this daemon, by adapter.',
      labelNames: ['adapter'],
      registers,
    }),
    failures: new Counter({
      name: 'svc_dispatch_failures_total',
      help: 'Failed dispatch attempts recorded by this daemon, by reason.',
      labelNames: ['reason'],
      registers,
    }),
    deadletters: new Counter({
      name: 'svc_deadletters_total',
      help: 'Tasks this daemon moved to deadletter.',
      registers,
    }),
    expiries: new Counter({
      name: 'svc_lease_expiries_total',
      help: 'Expired leases this daemon sent back to ready.',
      registers,
    }),
    violations: new Counter({
      name: 'svc_sla_violations_total',
      help: 'SLA violations this daemon alerted.',
      registers,
    }),
    reviews: new Counter({
      name: 'svc_murmur_reviews_total',
      help: 'Murmur review tasks this daemon created.',
      registers,
    }),
  };
  const moves = new Counter({
    name: 'svc_task_moves_total',
    help: 'Status changes seen by the index (any writer), by new status.',
    labelNames: ['to'],
    registers,
  });
  const appendFailures = new Counter({
    name: 'svc_event_log_append_failures_total',
    help: 'Appends to the event log that failed (lines kept and retried).',
    registers,
  });
  const checks = createCheckCounters(registers);
  const latency = new Histogram({
    name: 'svc_dispatch_latency_seconds',
    help: 'From a task landing in ready to its spawn handed to an adapter.',
    labelNames: ['adapter'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  // id -> when it landed in ready; kept while the task is leased, until it is handed over or leaves in-progress
  const landed = new Map<string, number>();
  for (const entry of ready) landed.set(entry.id, toMs(entry.updatedAt) ?? clock().getTime());
  return {
    onEvents(events) {
      for (const event of events) {
        const counter = COUNTED[event.type as keyof typeof COUNTED];
        const payload: Readonly<Record<string, unknown>> = event.payload;
        if (counter === 'dispatches') counters.dispatches.inc({ adapter: toLabel(payload.adapter) });
        else if (counter === 'failures') counters.failures.inc({ reason: toLabel(payload.reason) });
        else if (counter) counters[counter].inc();
        else checks.onEvent(event);
      }
    },
    onChange(change) {
      if (change.to) moves.inc({ to: change.to });
      if (change.to === 'ready') landed.set(change.id, clock().getTime());
      else if (change.from === 'in-progress' || (change.from === 'ready' && change.to !== 'in-progress'))
        landed.delete(change.id);
    },
    onHanded(taskId, adapter) {
      const since = landed.get(taskId);
      landed.delete(taskId);
      if (since !== undefined)
        latency.observe({ adapter: toLabel(adapter) }, Math.max(0, clock().getTime() - since) / 1000);
    },
    onAppendFailure: () => appendFailures.inc(),
    readySince: (id) => landed.get(id),
  };
}

// --- internal ---

/**
 * The check counters, fed by `task.verified` (a run whose checks all passed) and `task.check_failed` (a run ended by
 * the check that failed).
 */
function createCheckCounters(registers: Registry[]) {
  const runs = new Counter({
    name: 'svc_check_runs_total',
    help: "Runs of a task's checks this daemon finished, by result.",
    labelNames: ['result'],
    registers,
  });
  const failures = new Counter({
    name: 'svc_check_failures_total',
    help: 'Check runs that failed, by the check that failed.',
    labelNames: ['check'],
    registers,
  });
  const duration = new Histogram({
    name: 'svc_check_duration_seconds',
    help: 'How long a check run took: all its checks when it passed, the failing check when it failed.',
    labelNames: ['result'],
    buckets: CHECK_BUCKETS,
    registers,
  });
  // Check names come from the org chart, but a hand-written task may name any: past 32 names, `other`.
  const names = new Set<string>();
  const toCheck = (value: unknown) => {
    const label = toLabel(value);
    if (!names.has(label) && names.size >= 32) return 'other';
    names.add(label);
    return label;
  };
  return {
    onEvent(event: EventInput): void {
      if (event.type !== 'task.verified' && event.type !== 'task.check_failed') return;
      const result = event.type === 'task.verified' ? 'passed' : 'failed';
      runs.inc({ result });
      if (event.type === 'task.check_failed') failures.inc({ check: toCheck(event.payload.name) });
      const ms = event.payload.durationMs;
      if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) duration.observe({ result }, ms / 1000);
    },
  };
}

/** A label value from an event's payload: short words as they are, anything else `other` (bounded label sets). */
function toLabel(value: unknown): string {
  return typeof value === 'string' && /^[a-z][a-z0-9_-]{0,39}$/.test(value) ? value : 'other';
}

function toMs(time: string): number | undefined {
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? undefined : ms;
}
