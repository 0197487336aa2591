import type { Team } from '../../org/schema.js';
import type { IndexEntry, TaskIndex } from '../../store/index/tasks.js';
import type { MurmurState } from './state.js';
import { isReviewTitle, type SummaryTask, type TaskSummary } from './review.js';
import { teamsOfTask, type Membership } from './team-tasks.js';

/** What a team's summary is built from: the index, who belongs where, and the tasks murmur counted. */
export interface SummaryOptions {
  index: TaskIndex;
  membership: Membership;
  team: Team;
  state: MurmurState | undefined;
  counted: { completed: readonly string[]; failed: readonly string[] };
}

/**
 * The `taskSummary` of a review: every task counted as completed or failed since the last review
 * (those counted by this daemon, whatever their routing, and the team's done, deadlettered or
 * failing tasks the index shows since then), newest completion first, and the open queues.
 */
export function summarizeTeam(options: SummaryOptions): TaskSummary {
  const { index, state, counted } = options;
  const since = state?.lastReviewAt ? Date.parse(state.lastReviewAt) : -Infinity;
  const mine = isTeamTask(options.membership, options.team.id);
  const pick = (status: Parameters<TaskIndex['summaries']>[0], keep: (e: IndexEntry) => boolean) =>
    [...index.summaries(status)].filter((e) => mine(e) && keep(e));
  const known = (ids: readonly string[]) =>
    ids.map((id) => index.get(id)).filter((e): e is IndexEntry => e !== undefined);
  const completed = union(
    known(counted.completed),
    pick('done', (e) => Date.parse(e.updatedAt) >= since),
  ).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const failing = union(known(counted.failed), [
    ...pick('deadletter', (e) => Date.parse(e.updatedAt) >= since),
    ...pick('ready', (e) => e.dispatchFailures > 0),
  ]);
  const count = (status: Parameters<TaskIndex['summaries']>[0]) => pick(status, () => true).length;
  return {
    completed: completed.map(toSummaryTask),
    failing: failing.map(toSummaryTask),
    open: { ready: count('ready'), inProgress: count('in-progress'), blocked: count('blocked') },
  };
}

/**
 * Review tasks of a team, other than the current one, still waiting or being worked on (ready or
 * in progress): reviews that went stale and were left as they are. One an operator moved to
 * blocked or done is handled.
 */
export function findStaleReviews(index: TaskIndex, teamId: string, currentId: string | null): IndexEntry[] {
  return STALE_STATUSES.flatMap((status) => [...index.summaries(status)])
    .filter((e) => e.id !== currentId && isReviewTitle(e.title, teamId))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * The team's tasks that failed between its last review and `before` (this daemon's start): the last daemon counted
 * them.
 */
export function findFailedBefore(options: Omit<SummaryOptions, 'counted'>, before: number): string[] {
  const since = options.state?.lastReviewAt ? Date.parse(options.state.lastReviewAt) : -Infinity;
  const mine = isTeamTask(options.membership, options.team.id);
  const failed = (e: IndexEntry) =>
    mine(e) &&
    (e.status === 'deadletter' || e.dispatchFailures > 0) &&
    Date.parse(e.updatedAt) >= since &&
    Date.parse(e.updatedAt) < before;
  return [...options.index.summaries()].filter(failed).map((e) => e.id);
}

/** A task line of a summary. */
export function toSummaryTask(entry: IndexEntry): SummaryTask {
  return { id: entry.id, title: entry.title, status: entry.status, dispatchFailures: entry.dispatchFailures };
}

// --- internal ---

const STALE_STATUSES = ['ready', 'in-progress'] as const;

function isTeamTask(membership: Membership, teamId: string): (entry: IndexEntry) => boolean {
  return (entry) => !isReviewTitle(entry.title) && teamsOfTask(entry.routing, entry.agent, membership).includes(teamId);
}

function union(first: IndexEntry[], second: IndexEntry[]): IndexEntry[] {
  const seen = new Set<string>();
  return [...first, ...second].filter((e) => !seen.has(e.id) && Boolean(seen.add(e.id)));
}
