import type { EventInput } from '../../core/events.js';
import { toIdDate } from '../../core/ids.js';
import { totalTokens, type Usage } from '../../core/usage.js';
import { readEvents } from './log.js';

/** What was spent: dollars (an unknown cost counts 0) and tokens of every kind. */
export interface Spend {
  usd: number;
  tokens: number;
}

/** A UTC calendar period: the day or the month of an instant. */
export type Period = 'day' | 'month';

/**
 * What each agent spent per UTC day, from the `run.usage` events, plus what the runs under way used so far. A team's
 * spend is the sum of its members' (`spentBy`).
 */
export interface SpendLedger {
  /** Adds a finished run's usage to `agent`'s spend on the day of `at`. */
  record(agent: string, usage: Readonly<Usage>, at: Date): void;
  /** Records the `run.usage` events among `events`, on the day of `at` (the daemon's store tells it of each batch). */
  observe(events: readonly EventInput[], at: Date): void;
  /** The usage so far of a run under way (`runKey`), counted today until it ends; null when it ended. */
  live(runKey: string, agent: string, usage: Readonly<Usage> | null): void;
  /** What `agents` spent together in the day or month of `now`, the runs under way included. */
  spentBy(agents: readonly string[], period: Period, now: Date): Spend;
}

/** An empty ledger. */
export function createSpendLedger(): SpendLedger {
  /** agent -> UTC day (`YYYY-MM-DD`) -> spend. */
  const days = new Map<string, Map<string, Spend>>();
  const running = new Map<string, { agent: string; spend: Spend }>();
  const ledger: SpendLedger = {
    record(agent, usage, at) {
      const day = toIdDate(at);
      const byDay = days.get(agent) ?? new Map<string, Spend>();
      days.set(agent, byDay);
      const before = byDay.get(day) ?? { usd: 0, tokens: 0 };
      byDay.set(day, add(before, toSpend(usage)));
    },
    observe(events, at) {
      for (const event of events) {
        if (event.type !== 'run.usage') continue;
        ledger.record(event.payload.agent, event.payload, at);
      }
    },
    live(runKey, agent, usage) {
      if (usage) running.set(runKey, { agent, spend: toSpend(usage) });
      else running.delete(runKey);
    },
    spentBy(agents, period, now) {
      const today = toIdDate(now);
      const prefix = period === 'day' ? today : today.slice(0, 7);
      let spent: Spend = { usd: 0, tokens: 0 };
      for (const agent of new Set(agents))
        for (const [day, spend] of days.get(agent) ?? []) if (day.startsWith(prefix)) spent = add(spent, spend);
      const members = new Set(agents);
      for (const run of running.values()) if (members.has(run.agent)) spent = add(spent, run.spend);
      return spent;
    },
  };
  return ledger;
}

/** A ledger seeded from the `run.usage` events of the event log since the first day of `now`'s UTC month. */
export async function loadSpendLedger(root: string, now: Date): Promise<SpendLedger> {
  const ledger = createSpendLedger();
  const from = `${toIdDate(now).slice(0, 7)}-01`;
  for (const event of await readEvents(root, { type: 'run.usage', from })) {
    const { agent } = event.payload;
    const at = new Date(event.timestamp);
    if (typeof agent !== 'string' || Number.isNaN(at.getTime())) continue;
    ledger.record(agent, toUsage(event.payload), at);
  }
  return ledger;
}

// --- internal ---

function toSpend(usage: Readonly<Usage>): Spend {
  return { usd: usage.costUsd ?? 0, tokens: totalTokens(usage) };
}

function add(a: Spend, b: Spend): Spend {
  return { usd: Math.round((a.usd + b.usd) * 1e6) / 1e6, tokens: a.tokens + b.tokens };
}

/** The usage of a `run.usage` payload as read back (lines are not checked when read: a missing count is 0). */
function toUsage(payload: Record<string, unknown>): Usage {
  const count = (key: string) => (typeof payload[key] === 'number' ? (payload[key] as number) : 0);
  return {
    inputTokens: count('inputTokens'),
    outputTokens: count('outputTokens'),
    cacheReadTokens: count('cacheReadTokens'),
    cacheWriteTokens: count('cacheWriteTokens'),
    costUsd: typeof payload.costUsd === 'number' ? payload.costUsd : null,
  };
}
