import { STATUSES, type Status } from '../../core/status.js';
import type { Paths } from '../disk/paths.js';
import type { InvalidFile } from '../commit/store.js';
import type { IndexEntry } from './entry.js';
import type { TaskIndexOptions } from './options.js';

// The state of one task index, shared by its bookkeeping (`sync.ts`) and its wiring (`tasks.ts`).

/** An invalid file, with the stamp of the version that failed (it is read again only when it changes). */
export interface TrackedInvalid extends InvalidFile {
  stamp: string;
}

/** The state of one index. */
export interface IndexState {
  paths: Paths;
  options: TaskIndexOptions;
  entries: Map<string, IndexEntry>;
  /** Ids per status: loaded entries, plus terminal ones known by name until read. */
  byStatus: Record<Status, Set<string>>;
  invalid: Map<string, TrackedInvalid>;
  /** Bumped by every relocation of an id; a read applies only if no later one started. */
  gen: Map<string, number>;
  dirs: Map<Status, { mtimeNs: bigint; syncedAt: number }>;
  /** Ids whose entry was set from the daemon's own commit: the stamp it wrote, and when (`own-writes.ts`). */
  own: Map<string, { stamp: string; at: number }>;
  /** Ids with watcher events that came while a commit of theirs was in flight: looked at once it ends. */
  deferred: Set<string>;
  closed: boolean;
}

/** An empty state. */
export function newIndexState(paths: Paths, options: TaskIndexOptions): IndexState {
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, new Set<string>()])) as Record<Status, Set<string>>;
  return {
    paths,
    options,
    entries: new Map(),
    byStatus,
    invalid: new Map(),
    gen: new Map(),
    dirs: new Map(),
    own: new Map(),
    deferred: new Set(),
    closed: false,
  };
}

/** The loaded entries of one status. */
export function* entriesOf(state: IndexState, status: Status): IterableIterator<IndexEntry> {
  for (const id of state.byStatus[status]) {
    const entry = state.entries.get(id);
    if (entry?.status === status) yield entry;
  }
}

/** Reports an error (unless closed), then runs `then` (a recovery such as a full rescan). */
export function fail(state: IndexState, err: unknown, then?: () => Promise<void>): void {
  if (state.closed) return;
  state.options.onError?.(err);
  then?.().catch((next: unknown) => state.options.onError?.(next));
}
