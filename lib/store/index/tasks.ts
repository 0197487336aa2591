import { setImmediate as nextTurn } from 'node:timers/promises';
import { ACTIVE_STATUSES, STATUSES, type Status } from '../../core/status.js';
import { watchTree, type WatchEvent } from '../../fs/watcher.js';
import { activeSync } from './active-sync.js';
import type { Paths } from '../disk/paths.js';
import { listNames, type InvalidFile } from '../commit/store.js';
import { inSlices } from './slices.js';
import type { IndexEntry } from './entry.js';
import type { TaskIndexOptions } from './options.js';
import { isDirty, loadFile, recordDir, relocate, statDir, syncDir } from './sync.js';
import { entriesOf, fail, newIndexState, type IndexState } from './state.js';
import { applyStored, heldNews, isNews, isOwnFresh, pruneOwn } from './own-writes.js';
import type { StoredTask } from '../disk/task-file.js';

export type { IndexEntry } from './entry.js';
export type { IndexChange, TaskIndexOptions } from './options.js';

/** The in-memory index of `tasks/`, kept fresh by the watcher, the daemon's writes and rescans. */
export interface TaskIndex {
  /** Resolves once every task (terminal ones included) has been read. */
  loaded: Promise<void>;
  /** Resolves once the watcher watches (tests wait on it before writing). */
  watching: Promise<void>;
  get(id: string): IndexEntry | undefined;
  /** Every loaded task, or those of one status; an entry also is a `TaskSummary` of the tool registry. */
  summaries(status?: Status): IterableIterator<IndexEntry>;
  counts(): Record<Status, number>;
  invalid(): InvalidFile[];
  /** Re-reads these ids now (after a commit): read-your-writes for the daemon's own writes. */
  update(ids: readonly string[]): Promise<void>;
  /** `update` of the ids whose entry is not a commit result just applied (`apply`): those are up to date. */
  updateStale(ids: readonly string[]): Promise<void>;
  /** Sets a task's entry from the result of a commit of this process (the file it wrote), without reading it. */
  apply(stored: StoredTask): void;
  /**
   * No commit of `id` is in flight any more (null: a create ended): the watcher events held meanwhile of the ids no
   * longer in flight are looked at.
   */
  settled(id: string | null): void;
  /** Re-syncs the active directories whose mtime moved: read-your-writes for other processes. */
  refresh(): Promise<void>;
  /** Re-syncs every directory; `full` stats every file, terminal ones included. */
  rescan(options?: { full?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * Scans `tasks/` into memory and keeps it fresh. Active tasks (and deadletter) are read before this
 * resolves; done and cancelled ones are counted by name at once and read in the background (`loaded`).
 */
export async function createTaskIndex(paths: Paths, options: TaskIndexOptions = {}): Promise<TaskIndex> {
  const state = newIndexState(paths, options);
  const work = createWork(state);
  const watcher = options.watch === false ? null : watchEvents(state, work.update, work.rescan);
  await loadInitial(state);
  const loaded = loadTerminal(state, () => work.inflight.size > 0 || !!watcher?.pending() || !!options.busy?.());
  loaded.catch((err: unknown) => fail(state, err));
  const refresh = coalesce(async () => {
    const { mode } = activeSync(paths.tasks, null);
    const dirty = await Promise.all(
      ACTIVE_STATUSES.map(async (status) => ((await isDirty(state, status)) ? syncDir(state, status, mode) : [])),
    );
    await work.update(dirty.flat());
  });
  const timer = setInterval(() => {
    watcher?.rearm(); // a status directory deleted and re-created (by git, say) is watched again
    pruneOwn(state);
    void work.rescan().catch((err: unknown) => fail(state, err));
  }, options.rescanIntervalMs ?? 5000);
  timer.unref();
  return {
    loaded,
    watching: watcher ? watcher.ready : Promise.resolve(),
    get: (id) => state.entries.get(id),
    summaries: (status) => (status ? entriesOf(state, status) : state.entries.values()),
    counts: () => Object.fromEntries(STATUSES.map((s) => [s, state.byStatus[s].size])) as Record<Status, number>,
    invalid: () => [...state.invalid.values()].map(({ path, status, message }) => ({ path, status, message })),
    update: work.update,
    updateStale: (ids) => work.update(ids.filter((id) => !isOwnFresh(state, id))),
    apply(stored) {
      if (!applyStored(state, stored)) void work.update([stored.task.id]).catch((err: unknown) => fail(state, err));
    },
    settled(id) {
      const news = heldNews(state, id);
      if (news.length) void work.update(news).catch((err: unknown) => fail(state, err));
    },
    refresh: () => work.track(refresh()),
    rescan: work.rescan,
    async close() {
      state.closed = true;
      clearInterval(timer);
      await watcher?.close();
      await Promise.allSettled([loaded, ...work.inflight]);
    },
  };
}

// --- internal ---

/** More watcher events than this at once is a burst: one rescan beats relocating each id. */
const BURST = 500;
/** `update` and `rescan`, tracked so `close` can wait for them; rescans coalesced (a queued `full` is kept). */
function createWork(state: IndexState) {
  const inflight = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inflight.add(promise);
    void promise.finally(() => inflight.delete(promise)).catch(() => undefined);
    return promise;
  };
  const update = (ids: readonly string[]) =>
    track(Promise.all(ids.map((id) => relocate(state, id))).then(() => undefined));
  let rescans = 0;
  let wantFull = false;
  const run = coalesce(async () => {
    const full = wantFull || ++rescans % (state.options.terminalRescanEvery ?? 60) === 0;
    wantFull = false;
    const active = activeSync(state.paths.tasks, rescans);
    const found = await Promise.all(
      STATUSES.map(async (status) => {
        if (full || (isActive(status) && active.always)) return syncDir(state, status, 'stat');
        return (await isDirty(state, status)) ? syncDir(state, status, isActive(status) ? active.mode : 'names') : [];
      }),
    );
    const ids = found.flat();
    await update(ids);
    if (ids.length) state.options.onRescanFound?.({ count: ids.length, full });
  });
  const rescan = (opts: { full?: boolean } = {}) => {
    wantFull ||= !!opts.full;
    return track(run());
  };
  return { inflight, track, update, rescan };
}

/** Feeds watcher events into `update`, coalesced; a burst or an error becomes one full rescan. */
function watchEvents(
  state: IndexState,
  update: (ids: string[]) => Promise<void>,
  rescan: (o: { full: boolean }) => Promise<void>,
) {
  const pending = new Set<string>();
  let flush: NodeJS.Timeout | undefined;
  const watcher = watchTree(
    state.paths.tasks,
    (event: WatchEvent) => {
      if (state.closed) return;
      if (event.type === 'error') return fail(state, event.error, () => rescan({ full: true }));
      pending.add(event.id);
      flush ??= setTimeout(() => {
        flush = undefined;
        const ids = [...pending].filter((id) => isNews(state, id));
        pending.clear();
        void (ids.length > BURST ? rescan({ full: true }) : update(ids)).catch((err: unknown) => fail(state, err));
      }, 5);
    },
    { statuses: ACTIVE_STATUSES },
  );
  return {
    ready: watcher.ready,
    rearm: watcher.rearm,
    /** Watcher events are waiting for their update. */
    pending: () => flush !== undefined,
    close: async () => {
      if (flush) clearTimeout(flush);
      await watcher.close();
    },
  };
}

function isActive(status: Status): boolean {
  return (ACTIVE_STATUSES as readonly Status[]).includes(status);
}

/** Lists every status; reads the non-terminal files now and counts done and cancelled by name. */
async function loadInitial(state: IndexState): Promise<void> {
  const started = Date.now();
  const dirStats = await Promise.all(STATUSES.map((status) => statDir(state, status)));
  const names = await listNames(state.paths);
  // Fresh copies of the ids: a name cut from a directory listing keeps the whole file name alive.
  const ids = JSON.parse(JSON.stringify([...names.keys()])) as string[];
  const files: { id: string; status: Status }[] = [];
  for (const id of ids) {
    const statuses = names.get(id)!;
    if (statuses.length > 1) state.options.onNeedsRepair?.(id, 'duplicate');
    for (const status of statuses) {
      if (status === 'done' || status === 'cancelled') state.byStatus[status].add(id);
      else files.push({ id, status });
    }
  }
  const rereads = files.map((file) => loadFile(state, file, -1)).filter((reread) => reread !== undefined);
  await Promise.all(rereads);
  STATUSES.forEach((status, i) => recordDir(state, status, { dirStat: dirStats[i], syncedAt: started }));
}

/**
 * Reads the terminal tasks counted by name, in short synchronous slices that pause while `busy()` (watcher events,
 * updates, dispatches).
 */
async function loadTerminal(state: IndexState, busy: () => boolean): Promise<void> {
  const files: { id: string; status: Status; gen: number }[] = [];
  for (const status of ['done', 'cancelled'] as const) {
    for (const id of state.byStatus[status])
      if (!state.entries.has(id)) files.push({ id, status, gen: state.gen.get(id) ?? 0 });
  }
  await nextTurn();
  await inSlices(
    files,
    (file) => {
      if (state.closed) return false;
      loadFile(state, file, file.gen);
      return true;
    },
    busy,
  );
}

/** Wraps `fn` so concurrent callers share runs, and a caller never gets a run that began before it asked. */
function coalesce(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const run = (): Promise<void> => {
    if (!running) {
      running = fn().finally(() => (running = null));
      return running;
    }
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return run();
      });
    return queued;
  };
  return run;
}
