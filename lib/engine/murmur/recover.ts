import type { Team } from '../../org/schema.js';
import type { TaskIndex } from '../../store/index/tasks.js';
import { isReviewTitle } from './review.js';
import type { MurmurState } from './state.js';

/** A team whose review creation was interrupted, and where to look for the task. */
export interface RecoverCreationOptions {
  index: TaskIndex;
  team: Team & { orchestrator: string };
  state: MurmurState;
  /** Murmur's log (its lines carry the murmur prefix). */
  log: (line: string) => void;
}

/** A review whose creation was interrupted: adopt the task if it was written, else forget the attempt. */
export function recoverCreation({ index, team, state, log }: RecoverCreationOptions): MurmurState {
  const since = Date.parse(state.reviewStartedAt!);
  for (const status of ['ready', 'in-progress', 'blocked', 'backlog'] as const) {
    for (const entry of index.summaries(status)) {
      if (
        isReviewTitle(entry.title, team.id) &&
        entry.routing.agent === team.orchestrator &&
        Date.parse(entry.createdAt) >= since
      ) {
        log(`review ${entry.id} of team ${team.id} was created before a restart; it is the current review`);
        return { ...state, currentReviewTaskId: entry.id };
      }
    }
  }
  return { ...state, reviewStartedAt: null };
}
