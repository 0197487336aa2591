import type { EventPayloads } from '../../core/events.js';
import type { Team } from '../../org/schema.js';
import type { MurmurDecision } from './evaluate.js';
import type { MurmurState } from './state.js';

/** A review that waits: held by the concurrency limit, or deferred after stale reviews. */
export type MurmurWait = Extract<MurmurDecision, { kind: 'held' | 'deferred' }>;

/** The end of a team's current review: completed, cancelled or gone, or stale. */
export type MurmurOutcome = Extract<MurmurDecision, { kind: 'completed' | 'ended' | 'stale' }>;

/** The log line of a review that waits (logged once per kind of wait). */
export function toWaitLine(teamId: string, decision: MurmurWait): string {
  return decision.kind === 'held'
    ? `review of team ${teamId} (${decision.trigger}: ${decision.reason}) waits: ` +
        `${decision.running} tasks in progress, the global concurrency limit`
    : `review of team ${teamId} (${decision.trigger}: ${decision.reason}) waits until ` +
        `${decision.until}: earlier reviews went stale and are still open (${decision.stale.join(', ')})`;
}

/** The log line of a review's end; `state` is the team's state before it. */
export function toOutcomeLine(team: Team, state: MurmurState, decision: MurmurOutcome): string {
  const taskId = decision.taskId;
  if (decision.kind === 'completed') return `review ${taskId} of team ${team.id} completed; counters reset`;
  if (decision.kind === 'ended')
    return (
      `review ${taskId} of team ${team.id} ` +
      `${decision.why === 'cancelled' ? 'was cancelled' : 'no longer exists'}; the team can be reviewed again`
    );
  return (
    `warning: stale review ${taskId} of team ${team.id}: started ` +
    `${state.reviewStartedAt}, older than reviewTimeoutMs ` +
    `(${team.murmur!.reviewTimeoutMs} ms); cleared from the team's state, ` +
    `the task itself is left as it is (move it to blocked or done by hand)`
  );
}

/** The payload of the `murmur.review` event of a review's end; `state` is the team's state before it. */
export function toOutcomePayload(
  team: Team,
  state: MurmurState,
  decision: MurmurOutcome,
): EventPayloads['murmur.review'] {
  const action = decision.kind === 'stale' ? 'timedOut' : decision.kind === 'completed' ? 'completed' : decision.why;
  return {
    team: team.id,
    action,
    trigger: state.lastTriggeredBy,
    ...(decision.kind === 'stale' ? { ageMs: decision.ageMs } : {}),
  };
}
