import type { IndexChange, IndexEntry, TaskIndex } from '../store/task-index.js';
import { isReviewTitle } from './murmur-review.js';
import { teamsOfTask, type Membership } from './team-tasks.js';

/** Completions and failures per team, counted from index changes until murmur takes them. */
export interface MurmurCounts {
  observe(change: IndexChange, membership: Membership | null): void;
  /** The counts of a team since the last take (zero when none), reset to zero. */
  take(teamId: string): { completions: number; failures: number };
}

/**
 * Counts from the index's status changes: a move to done is a completion; a move to deadletter, or
 * from in-progress back to ready with `dispatchFailures` grown since the dispatch, is a failure.
 * The agent of a task is the lease holder seen while it was in progress, else `routing.agent`.
 */
export function createMurmurCounts(index: TaskIndex): MurmurCounts {
  const counts = new Map<string, { completions: number; failures: number }>();
  const running = new Map<string, { agent: string | undefined; failures: number }>();
  for (const entry of index.summaries('in-progress')) running.set(entry.id, { agent: entry.lease?.agent, failures: entry.dispatchFailures });

  const add = (entry: IndexEntry, agent: string | undefined, what: 'completions' | 'failures', membership: Membership) => {
    if (isReviewTitle(entry.title)) return;
    for (const team of teamsOfTask(entry.routing, agent ?? entry.agent, membership)) {
      const count = counts.get(team) ?? { completions: 0, failures: 0 };
      count[what]++;
      counts.set(team, count);
    }
  };

  return {
    observe(change, membership) {
      const entry = index.get(change.id);
      const seen = running.get(change.id);
      if (change.from === 'in-progress') running.delete(change.id);
      if (!entry) return;
      if (change.to === 'in-progress') running.set(entry.id, { agent: entry.lease?.agent, failures: entry.dispatchFailures });
      if (!membership) return;
      if (change.to === 'done' && change.from !== undefined) add(entry, seen?.agent, 'completions', membership);
      if (change.to === 'deadletter') add(entry, seen?.agent, 'failures', membership);
      if (change.from === 'in-progress' && change.to === 'ready' && seen && entry.dispatchFailures > seen.failures) add(entry, seen.agent, 'failures', membership);
    },
    take(teamId) {
      const count = counts.get(teamId) ?? { completions: 0, failures: 0 };
      counts.delete(teamId);
      return count;
    },
  };
}
