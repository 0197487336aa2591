import type { Status } from '../../core/status.js';
import type { Murmur, Trigger, TriggerKind } from '../../org/schema.js';
import type { MurmurState } from './state.js';

/** What one team's evaluation needs, taken from the daemon's index. */
export interface MurmurView {
  murmur: Murmur;
  /** The team's ready and in-progress tasks (review tasks not counted). */
  ready: number;
  inProgress: number;
  /** Tasks in progress across the tree, and `aof.daemon.maxConcurrentDispatches`. */
  running: number;
  maxConcurrentDispatches: number;
  /** Status of `currentReviewTaskId` in the index; undefined when the index does not know it (yet). */
  reviewStatus: Status | undefined;
  /** False while the index still loads done and cancelled tasks: an unknown review may be one of them. */
  indexLoaded: boolean;
  /** Earlier reviews of the team that went stale and are still open (ready or in progress). */
  staleReviews?: readonly string[];
  /** When the last of them went stale (epoch ms). */
  lastStaleAt?: number | null;
}

/** What the executor does for one team. */
export type MurmurDecision =
  | { kind: 'idle' }
  | { kind: 'reviewing'; taskId: string }
  | { kind: 'completed'; taskId: string }
  | { kind: 'ended'; taskId: string; why: 'cancelled' | 'missing' }
  | { kind: 'stale'; taskId: string; ageMs: number }
  | { kind: 'held'; trigger: TriggerKind; reason: string; running: number }
  | { kind: 'deferred'; trigger: TriggerKind; reason: string; until: string; stale: readonly string[] }
  | { kind: 'review'; trigger: TriggerKind; reason: string };

/**
 * Decides one team's next step. A review in progress blocks every trigger (the idempotency guard)
 * until it is done, cancelled, gone, or older than `reviewTimeoutMs`. Otherwise the triggers are
 * evaluated in listed order and the first that fires wins; no review is created while the global
 * concurrency limit is reached, nor, after reviews went stale, before `reviewTimeoutMs` times the
 * number of those still open has passed since the last went stale. Pure: no I/O, no clock.
 */
export function evaluateMurmur(state: MurmurState, view: MurmurView, now: Date): MurmurDecision {
  const taskId = state.currentReviewTaskId;
  if (taskId) {
    if (view.reviewStatus === 'done') return { kind: 'completed', taskId };
    if (view.reviewStatus === 'cancelled') return { kind: 'ended', taskId, why: 'cancelled' };
    if (view.reviewStatus === undefined && view.indexLoaded) return { kind: 'ended', taskId, why: 'missing' };
    const ageMs = now.getTime() - Date.parse(state.reviewStartedAt ?? '');
    if (ageMs >= view.murmur.reviewTimeoutMs) return { kind: 'stale', taskId, ageMs };
    return { kind: 'reviewing', taskId };
  }
  for (const trigger of view.murmur.triggers) {
    const reason = firingReason(trigger, state, { view, now });
    if (reason === null) continue;
    if (view.running >= view.maxConcurrentDispatches)
      return { kind: 'held', trigger: trigger.kind, reason, running: view.running };
    const until = staleWaitUntil(view);
    if (until !== null && now.getTime() < until)
      return {
        kind: 'deferred',
        trigger: trigger.kind,
        reason,
        until: new Date(until).toISOString(),
        stale: view.staleReviews ?? [],
      };
    return { kind: 'review', trigger: trigger.kind, reason };
  }
  return { kind: 'idle' };
}

/** Why a trigger fires now, or null when it does not (`seen`: the team's queues, and now). */
export function firingReason(
  trigger: Trigger,
  state: MurmurState,
  seen: { view: Pick<MurmurView, 'ready' | 'inProgress'>; now: Date },
): string | null {
  const { view, now } = seen;
  const { completionsSinceLastReview: done, failuresSinceLastReview: failed } = state;
  switch (trigger.kind) {
    case 'queueEmpty':
      // Only a queue that drained: an idle team with nothing done since its last review is not reviewed again.
      if (view.ready || view.inProgress || done + failed === 0) return null;
      return (
        `the team's ready and in-progress queues are empty (${done} ` +
        `completed, ${failed} failed since the last review)`
      );
    case 'completionBatch':
      return done >= trigger.threshold
        ? `${done} tasks completed since the last review (threshold ${trigger.threshold})`
        : null;
    case 'failureBatch':
      return failed >= trigger.threshold
        ? `${failed} tasks failed or deadlettered since the last review (threshold ${trigger.threshold})`
        : null;
    case 'interval': {
      if (!state.lastReviewAt) return 'no review has run yet';
      const elapsed = now.getTime() - Date.parse(state.lastReviewAt);
      return elapsed >= trigger.intervalMs
        ? `${elapsed} ms since the last review (interval ${trigger.intervalMs} ms)`
        : null;
    }
  }
}

/** The state after a decision was carried out at `done.now` (`done.taskId`: the review task created for a `review`). */
export function applyDecision(
  state: MurmurState,
  decision: MurmurDecision,
  done: { now: Date; taskId?: string },
): MurmurState {
  const { now, taskId } = done;
  switch (decision.kind) {
    case 'completed':
      return {
        ...state,
        lastReviewAt: now.toISOString(),
        completionsSinceLastReview: 0,
        failuresSinceLastReview: 0,
        currentReviewTaskId: null,
        reviewStartedAt: null,
      };
    case 'ended':
    case 'stale':
      return { ...state, currentReviewTaskId: null, reviewStartedAt: null };
    case 'review':
      return {
        ...state,
        currentReviewTaskId: taskId ?? null,
        reviewStartedAt: now.toISOString(),
        lastTriggeredBy: decision.trigger,
      };
    default:
      return state;
  }
}

// --- internal ---

/**
 * After stale reviews: the end of the wait, `reviewTimeoutMs` per stale review still open, from the last one's expiry.
 */
function staleWaitUntil(view: MurmurView): number | null {
  const count = view.staleReviews?.length ?? 0;
  if (!count || view.lastStaleAt === undefined || view.lastStaleAt === null) return null;
  return view.lastStaleAt + view.murmur.reviewTimeoutMs * count;
}
