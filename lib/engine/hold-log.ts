import type { Action, HoldReason } from './plan.js';
import { describeError } from '../core/errors.js';

type Hold = Extract<Action, { kind: 'hold' }>;

/**
 * Expected waits, not logged: a busy agent, the global limit, dependencies, a backoff, a `notBefore`, an operator's
 * pause.
 */
const QUIET_HOLDS: ReadonlySet<string> = new Set([
  'concurrency',
  'agent-busy',
  'dependencies',
  'backoff',
  'not-before',
  'agent-paused',
  'previous-run-ending',
]);

/**
 * The warnings of a tick's holds: each task and reason at most once per `intervalMs`; `no-plugin-attached` once until
 * it ends.
 */
export interface HoldLog {
  /**
   * Logs the holds of one tick (`now` in ms) in one synchronous pass; `endRuns` for those waiting on a previous run.
   */
  record(actions: readonly Action[], now: number, endRuns?: (taskId: string, why: string) => void): void;
}

/** An empty hold log writing to `log`. */
export function createHoldLog(log: (line: string) => void, intervalMs: number): HoldLog {
  /**
   * By task (the index's own id strings, so no key is built per tick), then reason: when its warning may be logged
   * again.
   */
  const held = new Map<string, Map<HoldReason, number>>();
  /** Tasks whose `no-plugin-attached` hold was logged: once per task, again only after it was not held so. */
  const waitingForPlugin = new Set<string>();

  function logHold(action: Hold, now: number): void {
    if (QUIET_HOLDS.has(action.reason)) return;
    if (action.reason === 'no-plugin-attached') {
      if (waitingForPlugin.has(action.taskId)) return;
      waitingForPlugin.add(action.taskId);
    } else {
      let quietUntil = held.get(action.taskId);
      if ((quietUntil?.get(action.reason) ?? 0) > now) return;
      if (!quietUntil) held.set(action.taskId, (quietUntil = new Map()));
      quietUntil.set(action.reason, now + intervalMs);
    }
    log(`warning: ${action.taskId} held in ready, reason ${action.reason}: ${action.detail}`);
  }

  function forgetEndedHolds(actions: readonly Action[]): void {
    if (!waitingForPlugin.size) return;
    const still = new Set<string>();
    for (const a of actions) if (a.kind === 'hold' && a.reason === 'no-plugin-attached') still.add(a.taskId);
    for (const id of waitingForPlugin) if (!still.has(id)) waitingForPlugin.delete(id);
  }

  return {
    record(actions, now, endRuns) {
      forgetEndedHolds(actions);
      for (const action of actions) {
        if (action.kind !== 'hold') continue;
        try {
          if (action.reason === 'previous-run-ending') endRuns?.(action.taskId, 'it is to be dispatched again');
          logHold(action, now);
        } catch (err) {
          log(`hold of ${action.taskId} failed: ${describeError(err)}`);
        }
      }
    },
  };
}

/** The holds of a tick, counted by reason. */
export function countHolds(actions: readonly Action[]): Partial<Record<HoldReason, number>> {
  const counts: Partial<Record<HoldReason, number>> = {};
  for (const action of actions) if (action.kind === 'hold') counts[action.reason] = (counts[action.reason] ?? 0) + 1;
  return counts;
}
