import { forEachLimit } from '../core/limit.js';
import { toTimerDelay } from '../core/time/timer.js';
import type { OrgChart } from '../org/schema.js';
import { toDaemonSettings } from '../org/org-chart.js';
import { findUnavailableWorkspaces } from '../org/workspaces.js';
import { deadletterTask } from '../store/changes/dispatch.js';
import { expireLease } from '../store/changes/requeue.js';
import { formatDeadletterAlert } from './deadletter-alert.js';
import { plan, type Action, type HoldReason } from './plan.js';
import { countHolds, createHoldLog } from './hold-log.js';
import { createPauseReader } from './pause-reader.js';
import { runDispatch } from './run.js';

import type { Hold, SchedulerHandle, SchedulerOptions, TickReport } from './scheduler-api.js';
import { describeError } from '../core/errors.js';

export type { Hold, SchedulerHandle, SchedulerOptions, SchedulerSource, TickReport } from './scheduler-api.js';

/** Actions of one tick applied at once: enough to overlap fsyncs, few enough to stay far from fd limits. */
const APPLY_CONCURRENCY = 16;
/**
 * A tick whose plan took at least this long (hundreds of ready tasks or more) and that was asked for again is followed
 * by a rest as long, at most `MAX_REST_MS`, before the next: a tick then takes at most half the
 * event loop however many tasks are ready, and covers the changes of the rest before it, so a
 * stream of changes costs a bounded tick time per change. A tick over a few ready tasks is shorter
 * and the next follows at once.
 */
const REST_FROM_MS = 2;
const MAX_REST_MS = 1000;

/** Starts the scheduler: ticks are coalesced; several requests during a tick yield one more tick. */
export function startScheduler(options: SchedulerOptions): SchedulerHandle {
  const holdLog = createHoldLog(options.log, options.holdLogIntervalMs ?? 60_000);
  const inflight = new Set<Promise<unknown>>();
  const runs = new Set<Promise<unknown>>();
  let current: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let lastTickAt: string | null = null;
  let holds: ReadonlyMap<string, Hold> = new Map();
  let holdCounts: Partial<Record<HoldReason, number>> = {};
  let wake: { at: number; timer: NodeJS.Timeout } | null = null;
  let rest: { timer: NodeJS.Timeout; end(): void } | null = null;
  /** How long the last tick's plan held the event loop (its dispatches' file work and spawns not counted). */
  let planMs = 0;
  /** No tick before this time (`performance.now()`): the rest after a long plan. */
  let restUntil = 0;
  const pauses = createPauseReader(options.store.paths, options.log);

  async function planNow() {
    const org = await options.loadOrg();
    const settings = toDaemonSettings(org);
    const now = options.store.clock();
    const snapshot = await options.source.snapshot();
    const paused = await pauses.get();
    const actions = plan(snapshot, {
      org,
      now,
      paused,
      host: options.owner?.host,
      maxConcurrentDispatches: settings.maxConcurrentDispatches,
      mode: options.mode(),
      ...(settings.maxDispatchesPerDaemon && options.owner
        ? { perDaemon: { limit: settings.maxDispatchesPerDaemon, owner: options.owner } }
        : {}),
      pluginAttached: options.pluginAttached(),
      gatewayConfigured: Boolean(settings.gatewayUrl),
      orgProblem: options.orgProblem?.() ?? null,
      unavailableWorkspaces: findUnavailableWorkspaces(org),
      budgetHold: options.budgetHold?.(org, now),
    });
    return { org, settings, now, snapshot, actions };
  }

  async function tick(): Promise<TickReport> {
    const started = performance.now();
    const { org, settings, now, snapshot, actions } = await planNow();
    lastTickAt = now.toISOString();
    holdCounts = countHolds(actions);
    holds = new Map(
      actions.flatMap((a) => (a.kind === 'hold' ? [[a.taskId, { reason: a.reason, detail: a.detail }] as const] : [])),
    );
    wakeForBackoff(actions, now);
    const dispatched: string[] = [];
    options.trace?.(
      `tick: ${snapshot.ready.length} ready, ${snapshot.inProgress.length} in progress -> ${summarizeActions(actions)}`,
    );
    if (options.dryRun?.()) {
      for (const action of actions)
        if (action.kind !== 'hold')
          options.log(
            `dry run: would ${action.kind} ` +
              `${action.taskId}${action.kind === 'dispatch' ? ` to ${action.agent} (${action.adapter})` : ''}`,
          );
      planMs = performance.now() - started;
      return { actions, dispatched };
    }
    // Holds are logged in one synchronous pass (thousands of ready tasks held cost no promise each);
    // only the actions that change a task go through the concurrent apply.
    holdLog.record(actions, options.store.clock().getTime(), options.endRuns);
    planMs = performance.now() - started;
    const changes = actions.filter((action): action is Exclude<Action, { kind: 'hold' }> => action.kind !== 'hold');
    await forEachLimit(changes, APPLY_CONCURRENCY, (action) =>
      apply(action, { ttlMs: settings.defaultLeaseTtlMs, org, dispatched }),
    );
    return { actions, dispatched };
  }

  /** Carries out one action of a pass (`pass`: its lease time, its org chart, and the dispatches made so far). */
  async function apply(
    action: Exclude<Action, { kind: 'hold' }>,
    pass: { ttlMs: number; org: OrgChart | null; dispatched: string[] },
  ): Promise<void> {
    const { ttlMs, org, dispatched } = pass;
    try {
      if (action.kind === 'expire') {
        const expired = await expireLease(options.store, action.taskId, action.sessionId);
        // expired, or renewed meanwhile (perhaps through another host): look again
        await options.onCommitted?.([action.taskId]);
        if (expired) {
          options.log(
            `lease of ${action.taskId} (agent ${action.agent}, session ` +
              `${action.sessionId}) expired at ${action.expiredAt}: back to ready`,
          );
          options.endRuns?.(action.taskId, 'its lease expired');
          schedule();
        }
      } else if (action.kind === 'deadletter') {
        const dead = await deadletterTask(options.store, action.taskId);
        if (dead) options.alert(formatDeadletterAlert(dead, undefined));
        await options.onCommitted?.([action.taskId]);
      } else if (await pauses.isPaused(action.agent)) {
        // paused after the plan was made
        options.log(`${action.taskId} not dispatched: agent ${action.agent} was paused meanwhile`);
      } else {
        const run = runDispatch({ ...options, org, ttlMs, schedule, track: (ended) => track(ended, runs) }, action);
        track(run);
        if (await run) dispatched.push(action.taskId);
      }
    } catch (err) {
      options.log(`${action.kind} of ${action.taskId} failed: ${describeError(err)}`);
    }
  }

  /** A task held by `backoff` gets a tick when its next attempt is due (the poll would be up to 30 s late). */
  function wakeForBackoff(actions: readonly Action[], now: Date): void {
    let due = Infinity;
    for (const a of actions) if (a.kind === 'hold' && a.until) due = Math.min(due, Date.parse(a.until));
    if (!Number.isFinite(due) || (wake && wake.at <= due && wake.at > now.getTime())) return;
    if (wake) clearTimeout(wake.timer);
    const delay = toTimerDelay(due - now.getTime() + 5); // a notBefore weeks ahead wakes once a few weeks, not at once
    const timer = setTimeout(() => {
      wake = null;
      schedule();
    }, delay);
    timer.unref();
    wake = { at: now.getTime() + delay - 5, timer };
  }

  function restFor(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        rest = null;
        resolve();
      };
      const timer = setTimeout(end, ms);
      rest = { timer, end };
    });
  }

  function track(promise: Promise<unknown>, into = inflight): void {
    into.add(promise);
    void promise.catch(() => undefined).finally(() => into.delete(promise));
  }

  function schedule(): void {
    if (closed) return;
    if (current) {
      again = true;
      return;
    }
    // `current` is cleared in the same synchronous step that sees no request pending: a request
    // arriving after that check starts its own run instead of setting a flag no loop reads again.
    current = (async () => {
      do {
        // A plan over many ready tasks holds the event loop: ticks back to back would cost one per
        // change of a stream and leave the changes only the gaps. A rest as long as the plan, whether
        // the next request came during the tick or after it, lets them in and gathers them.
        const wait = restUntil - performance.now();
        if (wait > 0) await restFor(wait);
        if (closed) break;
        again = false;
        planMs = 0;
        await tick().catch((err: unknown) => options.log(`tick failed: ${describeError(err)}`));
        restUntil = planMs >= REST_FROM_MS ? performance.now() + Math.min(planMs, MAX_REST_MS) : 0;
      } while (again && !closed);
      current = null;
    })();
  }

  return {
    schedule,
    tick,
    preview: async () => (await planNow()).actions,
    busy: () => current !== null || inflight.size > 0,
    async idle() {
      while (current || inflight.size) await Promise.allSettled([current, ...inflight]);
    },
    async drain() {
      while (current || inflight.size || runs.size) await Promise.allSettled([current, ...inflight, ...runs]);
    },
    stats: () => ({ lastTickAt, activeRuns: runs.size }),
    holds: () => holds,
    holdCounts: () => holdCounts,
    async close() {
      closed = true;
      if (wake) clearTimeout(wake.timer);
      rest?.end();
      await current;
    },
  };
}

// --- internal ---

function summarizeActions(actions: readonly Action[]): string {
  const counts = new Map<string, number>();
  for (const action of actions) counts.set(action.kind, (counts.get(action.kind) ?? 0) + 1);
  return counts.size ? [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ') : 'nothing to do';
}
