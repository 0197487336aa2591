import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { SvcError } from '../../core/errors.js';
import type { Clock } from '../../core/time/clock.js';
import { ROUTES, toRouteLabel } from '../../net/protocol/routes.js';
import type { OrgChart } from '../../org/schema.js';
import type { IndexEntry } from '../../store/index/tasks.js';
import { queryOf, sendError, sendJson } from '../http/exchange.js';
import { createMetricCounters, type MetricCounters } from './counters.js';
import { registerGauges, type GaugeSource } from './gauges.js';
import { createUsageCounters } from './usage.js';
import { registerWorkGauges, type WorkGaugeSource } from './work.js';
import { registerNotifyMetrics, type NotifyMetrics, type NotifyMetricSource } from './notify.js';

/** The content type of `GET /metrics`: the Prometheus text format 0.0.4. */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** A daemon's metrics (docs/metrics.md): a registry of its own, its counters, and the text of a scrape. */
export interface Metrics {
  counters: MetricCounters;
  /** The notifications' counters (docs/notifications.md). */
  notify: NotifyMetrics;
  /** The Prometheus text of every metric now (gauges read at this instant). */
  render(): Promise<string>;
  /** The same as JSON: one object per metric family (`name`, `help`, `type`, `values` with `labels`). */
  renderJson(): Promise<unknown[]>;
}

/** Options of `createMetrics`. */
export interface MetricsOptions {
  clock: Clock;
  /** The tasks ready when the daemon starts (their landing time is their `updatedAt`). */
  ready: Iterable<IndexEntry>;
  /** What the gauges read, at each scrape. */
  source: Omit<GaugeSource, 'clock' | 'readySince'>;
  /** What the gauges of waiting work read, at each scrape. */
  work: WorkGaugeSource;
  /** The org chart in use, which bounds the agent and model labels of the usage counters (none: all `other`). */
  loadOrg?: () => Promise<OrgChart | null>;
  /** The outbox the notification gauges read (none: always empty). */
  notify?: NotifyMetricSource;
}

/**
 * Creates the registry of one daemon (never prom-client's global one): its counters and gauges; a
 * scrape adds the metrics of the process, registered once per process (they describe the process,
 * and their event-loop and GC observers cannot be stopped, so a daemon restarted in one process
 * must not add more).
 */
export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  const base = createMetricCounters(registry, options.clock, options.ready);
  const usage = createUsageCounters(registry, options.loadOrg ?? (async () => null));
  const counters: MetricCounters = {
    ...base,
    onEvents(events) {
      base.onEvents(events);
      usage.onEvents(events);
    },
  };
  registerGauges(registry, { ...options.source, clock: options.clock, readySince: counters.readySince });
  registerWorkGauges(registry, options.work);
  const notify = registerNotifyMetrics(registry, options.notify ?? { depth: () => null });
  const shared = processRegistry(); // observing from the start: GC durations, event-loop delay
  const scraped = () => Registry.merge([shared, registry]);
  return { counters, notify, render: () => scraped().metrics(), renderJson: () => scraped().getMetricsAsJSON() };
}

/**
 * The handler of `GET /metrics`, the same on every listener that serves it (the socket, the health
 * port, the web board's port): 200 with the text (`?format=json`: as JSON), 404 `not_found` for
 * another method.
 */
export function metricsHandler(
  metrics: () => Metrics | undefined,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(
        res,
        new SvcError(
          'not_found',
          `${req.method} ${ROUTES.metrics.path} is not served: metrics are read with GET.`,
          `Scrape ${toRouteLabel(ROUTES.metrics)}.`,
        ),
      );
    }
    try {
      const source = metrics();
      if (!source)
        throw new SvcError(
          'unavailable',
          'The daemon is starting: its metrics are not registered yet.',
          'Scrape again in a moment.',
        );
      if (queryOf(req).get('format') === 'json')
        return sendJson(res, 200, { ok: true, metrics: await source.renderJson() });
      const text = await source.render();
      res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'content-length': Buffer.byteLength(text) });
      res.end(req.method === 'HEAD' ? undefined : text);
    } catch (err) {
      sendError(res, err);
    }
  };
}

// --- internal ---

let processMetrics: Registry | undefined;

/** prom-client's default metrics of this process (CPU, memory, file descriptors, event loop, GC, heap). */
function processRegistry(): Registry {
  if (processMetrics) return processMetrics;
  processMetrics = new Registry();
  collectDefaultMetrics({ register: processMetrics });
  return processMetrics;
}
