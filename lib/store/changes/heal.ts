import type { CommitResult } from '../commit/protocol.js';
import type { Store } from '../commit/store.js';

/**
 * Heals a task file moved by hand: the directory wins, its frontmatter is rewritten to say so
 * (`task.transitioned` by actor `filesystem`). An id found in two directories keeps its newer
 * copy (the commit's re-read moves the other to `data/conflicts/`). Unchanged when nothing differs.
 */
export function healMovedTask(store: Store, id: string): Promise<CommitResult> {
  return store.commit(
    id,
    (current) => {
      // nothing to heal (a duplicate is resolved by the re-read)
      if (current.task.status === current.status) return null;
      return { task: current.task, body: current.body, status: current.status, reason: 'moved on disk' };
    },
    'filesystem',
  );
}
