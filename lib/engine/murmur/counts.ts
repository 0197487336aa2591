import type { IndexChange, IndexEntry, TaskIndex } from '../../store/index/tasks.js';
import { isReviewTitle } from './review.js';
import { teamsOfTask, type Membership } from './team-tasks.js';

/** Completions and failed tasks per team, counted from index changes until murmur takes them. */
export interface MurmurCounts {
  observe(change: IndexChange, membership: Membership | null): void;
  /**
   * What a team gained since the last take (zero when nothing): each completion, and each task that failed for the
   * first time since the last review.
   */
  take(teamId: string): { completions: number; failures: number };
  /** The tasks counted for a team since its last review (or since this daemon started), in the order counted. */
  counted(teamId: string): { completed: string[]; failed: string[] };
  /** Tasks that failed before this daemon started and were counted then: a new failure of one is not counted again. */
  seedFailed(teamId: string, ids: Iterable<string>): void;
  /** The team's review completed: its tasks may count again. */
  reset(teamId: string): void;
}

/**
 * Counts from the index's status changes: a move to done is a completion, and so is a task first seen
 * in done when it was last updated after `since` (completed by another daemon on the tree, or moved
 * by hand, between two of this index's looks); a move to deadletter, or
 * from in-progress back to ready with `dispatchFailures` grown since the dispatch, is a failure of
 * that task, counted once per task until the team's next review. The agent of a task is the lease
 * holder seen while it was in progress, else `routing.agent`.
 */
export function createMurmurCounts(index: TaskIndex, since: number): MurmurCounts {
  const teams = new Map<string, TeamTally>();
  const running = new Map<string, { agent: string | undefined; failures: number }>();
  for (const entry of index.summaries('in-progress'))
    running.set(entry.id, { agent: entry.lease?.agent, failures: entry.dispatchFailures });
  const tally = (team: string) => teams.get(team) ?? teams.set(team, newTally()).get(team)!;

  const add = (
    entry: IndexEntry,
    what: 'completed' | 'failed',
    by: { agent: string | undefined; membership: Membership },
  ) => {
    const { agent, membership } = by;
    if (isReviewTitle(entry.title)) return;
    for (const team of teamsOfTask(entry.routing, agent ?? entry.agent, membership)) {
      const t = tally(team);
      if (what === 'completed') {
        t.completions++;
        t.completed.delete(entry.id); // listed once, in the order of its last completion
        t.completed.add(entry.id);
      } else if (!t.failed.has(entry.id)) {
        t.failures++;
        t.failed.add(entry.id);
      }
    }
  };

  return {
    observe(change, membership) {
      const entry = index.get(change.id);
      const seen = running.get(change.id);
      if (change.from === 'in-progress') running.delete(change.id);
      if (!entry) return;
      if (change.to === 'in-progress')
        running.set(entry.id, { agent: entry.lease?.agent, failures: entry.dispatchFailures });
      if (!membership) return;
      if (change.to === 'done' && (change.from !== undefined || Date.parse(entry.updatedAt) >= since))
        add(entry, 'completed', { agent: seen?.agent, membership });
      if (change.to === 'deadletter') add(entry, 'failed', { agent: seen?.agent, membership });
      if (change.from === 'in-progress' && change.to === 'ready' && seen && entry.dispatchFailures > seen.failures)
        add(entry, 'failed', { agent: seen.agent, membership });
    },
    take(teamId) {
      const t = tally(teamId);
      const gained = { completions: t.completions, failures: t.failures };
      t.completions = 0;
      t.failures = 0;
      return gained;
    },
    counted(teamId) {
      const t = teams.get(teamId);
      return {
        completed: [...(t?.completed ?? [])],
        failed: [...(t?.failed ?? [])].filter((id) => !t?.seeded.has(id)),
      };
    },
    seedFailed(teamId, ids) {
      const t = tally(teamId);
      for (const id of ids) {
        if (t.failed.has(id)) continue;
        t.failed.add(id);
        t.seeded.add(id);
      }
    },
    reset(teamId) {
      const t = tally(teamId);
      // anything not yet taken counts for the next review
      teams.set(teamId, { ...newTally(), completions: t.completions, failures: t.failures });
    },
  };
}

// --- internal ---

interface TeamTally {
  completions: number;
  failures: number;
  completed: Set<string>;
  failed: Set<string>;
  /** Failed before this daemon started: kept from counting again, listed from the index instead. */
  seeded: Set<string>;
}

function newTally(): TeamTally {
  return { completions: 0, failures: 0, completed: new Set(), failed: new Set(), seeded: new Set() };
}
