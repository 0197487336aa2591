import { toDaemonSettings } from '../../org/org-chart.js';
import type { OrgChart, Team } from '../../org/schema.js';
import type { IndexEntry, TaskIndex } from '../../store/index/tasks.js';
import type { MurmurView } from './evaluate.js';
import { isReviewTitle } from './review.js';
import type { MurmurState } from './state.js';
import { findStaleReviews } from './summary.js';
import { teamsOfTask, type Membership } from './team-tasks.js';

/** What a team's view is read from: the daemon's index and org chart, the team's state, what the runner knows. */
export interface MurmurViewOptions {
  index: TaskIndex;
  membership: Membership;
  team: Team;
  org: OrgChart;
  state: MurmurState;
  indexLoaded: boolean;
  /** When the team's last review went stale (epoch ms), when this daemon saw it. */
  lastStaleAt: number | undefined;
}

/** What murmur decides a team's review on: its ready and in-progress tasks, the concurrency, its reviews. */
export function toMurmurView(options: MurmurViewOptions): MurmurView {
  const { index, membership, team, org, state, indexLoaded } = options;
  const mine = (entry: IndexEntry) =>
    !isReviewTitle(entry.title) && teamsOfTask(entry.routing, entry.agent, membership).includes(team.id);
  return {
    murmur: team.murmur!,
    ready: countWhere(index.summaries('ready'), mine),
    inProgress: countWhere(index.summaries('in-progress'), mine),
    running: index.counts()['in-progress'],
    maxConcurrentDispatches: toDaemonSettings(org).maxConcurrentDispatches,
    reviewStatus: state.currentReviewTaskId ? index.get(state.currentReviewTaskId)?.status : undefined,
    indexLoaded,
    ...staleOf(options),
  };
}

// --- internal ---

/**
 * The team's stale reviews still open, and when the last went stale (known here, else its creation plus the timeout).
 */
function staleOf({ index, team, state, lastStaleAt }: MurmurViewOptions): {
  staleReviews: string[];
  lastStaleAt: number | null;
} {
  const stale = findStaleReviews(index, team.id, state.currentReviewTaskId);
  if (!stale.length) return { staleReviews: [], lastStaleAt: null };
  const expired = Math.max(...stale.map((e) => Date.parse(e.createdAt) + team.murmur!.reviewTimeoutMs));
  return { staleReviews: stale.map((e) => e.id), lastStaleAt: Math.max(expired, lastStaleAt ?? -Infinity) };
}

function countWhere<T>(items: Iterable<T>, keep: (item: T) => boolean): number {
  let n = 0;
  for (const item of items) if (keep(item)) n++;
  return n;
}
