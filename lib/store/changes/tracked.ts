import type { CommitResult } from '../commit/protocol.js';
import type { Store } from '../commit/store.js';
import type { StoredTask } from '../disk/task-file.js';

/** Who hears of a tracked store's commits (the daemon: its index, its ticks, its healer). */
export interface OwnCommitsOptions {
  /** A commit or a create ended with this result (`before` absent for a create): the index takes it as it is. */
  onResult(after: StoredTask, before?: StoredTask): void;
  /** No commit of `id` is in flight any more (after its result, or its failure); null: a create ended. */
  onSettled(id: string | null): void;
  /** `arg` is a task's full id (the index has it), so a commit needs no lookup to know which task it changes. */
  isKnownId(arg: string): boolean;
}

/** A store whose commits in flight in this process are known by id. */
export interface OwnCommits {
  /** The store every writer of the process writes through; each change is the caller's, passed on as it is. */
  store: Store;
  /** A commit of `id` is under way in this process (or a create is, and `id` is no task the index knows). */
  inFlight(id: string): boolean;
  /** A commit of `id` (not a create) is under way in this process. */
  committing(id: string): boolean;
  /** Runs `fn` once no commit of `id` is in flight (at once when none is). */
  whenSettled(id: string, fn: () => void): void;
}

/**
 * Wraps a store: each commit marks its task in flight until it ends (the daemon's index holds the watcher's events
 * of the task meanwhile, its healer does not repair it), and each result is handed to `onResult`, so the index sets
 * the entry from the file the commit wrote instead of reading it again. It makes no change of its own.
 */
export function trackCommits(store: Store, options: OwnCommitsOptions): OwnCommits {
  const running = new Map<string, number>(); // id -> commits in flight
  const waiting = new Map<string, (() => void)[]>();
  let creating = 0; // creates in flight: their ids are known only once they end
  const settle = (id: string) => {
    const left = (running.get(id) ?? 1) - 1;
    if (left > 0) return void running.set(id, left);
    running.delete(id);
    options.onSettled(id);
    const fns = waiting.get(id) ?? [];
    waiting.delete(id);
    for (const fn of fns) fn();
  };
  const tracked: Store = {
    ...store,
    async create(input) {
      creating++;
      try {
        const created = await store.create(input);
        options.onResult(created);
        return created;
      } finally {
        creating--;
        options.onSettled(null);
      }
    },
    async commit(arg, change, actor): Promise<CommitResult> {
      const id = options.isKnownId(arg) ? arg : await store.resolve(arg);
      running.set(id, (running.get(id) ?? 0) + 1);
      try {
        const result = await store.commit(id, change, actor);
        options.onResult(result.after, result.before);
        return result;
      } finally {
        settle(id);
      }
    },
  };
  return {
    store: tracked,
    inFlight: (id) => running.has(id) || (creating > 0 && !options.isKnownId(id)),
    committing: (id) => running.has(id),
    whenSettled(id, fn) {
      if (!running.has(id)) return fn();
      const fns = waiting.get(id);
      if (fns) fns.push(fn);
      else waiting.set(id, [fn]);
    },
  };
}
