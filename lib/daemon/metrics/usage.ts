import { Counter, type Registry } from 'prom-client';
import type { OrgChart } from '../../org/schema.js';
import type { EventInput } from '../../store/events/log.js';

/** The token kinds of `svc_agent_tokens_total`, and the field of `run.usage` each counts. */
const KINDS = {
  input: 'inputTokens',
  output: 'outputTokens',
  cache_read: 'cacheReadTokens',
  cache_write: 'cacheWriteTokens',
} as const;

/** The tokens and cost counters of agent runs, fed from `run.usage` events. */
export interface UsageCounters {
  /** Counts the `run.usage` events among `events`, once the org chart that bounds their labels is read. */
  onEvents(events: readonly EventInput[]): void;
}

/**
 * Registers `svc_agent_tokens_total{agent,model,kind}` and `svc_agent_cost_usd_total{agent,model}` on `registry`.
 * Labels are bounded by the org chart: an agent not in it, and a model no agent names (nor `aof.pricing`), count as
 * `other`; a run whose cost is unknown adds its tokens and no cost.
 */
export function createUsageCounters(registry: Registry, loadOrg: () => Promise<OrgChart | null>): UsageCounters {
  const registers = [registry];
  const tokens = new Counter({
    name: 'svc_agent_tokens_total',
    help: 'Tokens of agent runs (run.usage), by agent, model and kind (input, output, cache_read, cache_write).',
    labelNames: ['agent', 'model', 'kind'],
    registers,
  });
  const cost = new Counter({
    name: 'svc_agent_cost_usd_total',
    help: 'Known cost in USD of agent runs (run.usage), by agent and model; runs of unknown cost add nothing.',
    labelNames: ['agent', 'model'],
    registers,
  });
  let queue = Promise.resolve();
  const count = (payload: Readonly<Record<string, unknown>>, org: OrgChart | null) => {
    const labels = toLabels(payload, org);
    for (const [kind, field] of Object.entries(KINDS)) {
      const value = payload[field];
      if (isAmount(value) && value > 0) tokens.inc({ ...labels, kind }, value);
    }
    if (isAmount(payload.costUsd) && payload.costUsd > 0) cost.inc(labels, payload.costUsd);
  };
  return {
    onEvents(events) {
      const runs = events.filter((event) => event.type === 'run.usage');
      if (!runs.length) return;
      queue = queue
        .then(() => loadOrg().catch(() => null))
        .then((org) => {
          for (const run of runs) count(run.payload, org);
        })
        // Metrics never stop the daemon: a batch that could not be counted is dropped, the next ones still count.
        .catch(() => undefined);
    },
  };
}

// --- internal ---

function toLabels(payload: Readonly<Record<string, unknown>>, org: OrgChart | null): { agent: string; model: string } {
  const agents = org?.agents ?? [];
  const agent = agents.find((entry) => entry.id === payload.agent)?.id ?? 'other';
  const named = typeof payload.model === 'string' && payload.model !== 'other' ? payload.model : null;
  const known =
    named !== null && (agents.some((entry) => entry.model === named) || Object.hasOwn(org?.aof.pricing ?? {}, named));
  return { agent, model: known ? named : 'other' };
}

function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
