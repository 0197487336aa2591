import { readFileSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SvcError } from '../core/errors.js';
import { ACTIVE_STATUSES, STATUSES, type Status } from '../core/status.js';
import { parseTask, type Lease, type Priority, type Routing } from '../core/task.js';
import { hasCode } from '../fs/atomic.js';
import { parseFrontmatter } from '../fs/frontmatter.js';
import { watchTree, type WatchEvent } from '../fs/watcher.js';
import type { Paths } from './paths.js';
import { toTaskId } from './paths.js';
import { listNames, type InvalidFile } from './store.js';
import { readTaskFile, type StoredTask } from './task-file.js';

/** One task as the index holds it: frontmatter fields only, never the body. */
export interface IndexEntry {
  id: string;
  status: Status;
  path: string;
  title: string;
  priority: Priority;
  routing: Routing;
  dependsOn: string[];
  lease?: Lease;
  /** The lease holder, else `routing.agent`. */
  agent?: string;
  createdAt: string;
  updatedAt: string;
  mtimeMs: number;
  /** Identity of the file version read (inode, size, mtime in ns). */
  stamp: string;
}

/** A task that appeared, moved or went away after the initial load (`from`/`to` absent on appear/vanish). */
export interface IndexChange {
  id: string;
  from?: Status;
  to?: Status;
}

/** Options of `createTaskIndex`. */
export interface TaskIndexOptions {
  /** Period of the rescan of the active status directories (the truth; watchers drop events). */
  rescanIntervalMs?: number;
  /** Every how many rescans the terminal directories get a full stat sweep (else names only). */
  terminalRescanEvery?: number;
  /** Watch the active directories with chokidar (default true). */
  watch?: boolean;
  onInvalid?: (file: InvalidFile) => void;
  onChange?: (change: IndexChange) => void;
  onError?: (err: unknown) => void;
}

/** The in-memory index of `tasks/`, kept fresh by the watcher, the daemon's writes and rescans. */
export interface TaskIndex {
  /** Resolves once every task (terminal ones included) has been read. */
  loaded: Promise<void>;
  /** Resolves once the watcher watches (tests wait on it before writing). */
  watching: Promise<void>;
  get(id: string): IndexEntry | undefined;
  /** Every loaded task; an entry also is a `TaskSummary` of the tool registry. */
  summaries(): IterableIterator<IndexEntry>;
  counts(): Record<Status, number>;
  invalid(): InvalidFile[];
  /** Re-reads these ids now (after a commit): read-your-writes for the daemon's own writes. */
  update(ids: readonly string[]): Promise<void>;
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
  const state = newState(paths, options);
  const inflight = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inflight.add(promise);
    void promise.finally(() => inflight.delete(promise)).catch(() => undefined);
    return promise;
  };
  const update = (ids: readonly string[]) => track(Promise.all(ids.map((id) => relocate(state, id))).then(() => undefined));
  let rescans = 0;
  let wantFull = false;
  const runRescan = coalesce(async () => {
    const full = wantFull || ++rescans % (options.terminalRescanEvery ?? 60) === 0;
    wantFull = false;
    const found = await Promise.all(STATUSES.map((status) => syncDir(state, status, isActive(status) || full ? 'stat' : 'names')));
    await update(found.flat());
  });
  const rescan = (opts: { full?: boolean } = {}) => {
    wantFull ||= !!opts.full;
    return track(runRescan());
  };
  const runRefresh = coalesce(async () => {
    await loaded;
    const dirty = await Promise.all(ACTIVE_STATUSES.map(async (status) => ((await isDirty(state, status)) ? syncDir(state, status, 'stat') : [])));
    await update(dirty.flat());
  });
  const watcher = options.watch === false ? null : watchEvents(state, update, rescan);
  await loadInitial(state);
  const loaded = loadTerminal(state);
  loaded.catch((err: unknown) => fail(state, err));
  const timer = setInterval(() => void rescan().catch((err: unknown) => fail(state, err)), options.rescanIntervalMs ?? 5000);
  timer.unref();
  return {
    loaded,
    watching: watcher ? watcher.ready : Promise.resolve(),
    get: (id) => state.entries.get(id),
    summaries: () => state.entries.values(),
    counts: () => Object.fromEntries(STATUSES.map((s) => [s, state.byStatus[s].size])) as Record<Status, number>,
    invalid: () => [...state.invalid.values()].map(({ path, status, message }) => ({ path, status, message })),
    update,
    refresh: () => track(runRefresh()),
    rescan,
    async close() {
      state.closed = true;
      clearInterval(timer);
      await watcher?.close();
      await Promise.allSettled([loaded, ...inflight]);
    },
  };
}

// --- internal ---

/** More watcher events than this at once is a burst: one rescan beats relocating each id. */
const BURST = 500;
/** Files read per turn of the event loop while loading terminal tasks in the background. */
const LOAD_BATCH = 100;
/** A directory mtime this close to the last sync may hide a change made in the same clock tick. */
const RACY_MS = 2000;

interface TrackedInvalid extends InvalidFile {
  stamp: string;
}

interface State {
  paths: Paths;
  options: TaskIndexOptions;
  entries: Map<string, IndexEntry>;
  /** Ids per status: loaded entries, plus terminal ones known by name until read. */
  byStatus: Record<Status, Set<string>>;
  invalid: Map<string, TrackedInvalid>;
  /** Bumped by every relocation of an id; a read applies only if no later one started. */
  gen: Map<string, number>;
  dirs: Map<Status, { mtimeNs: bigint; syncedAt: number }>;
  closed: boolean;
}

function newState(paths: Paths, options: TaskIndexOptions): State {
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, new Set<string>()])) as Record<Status, Set<string>>;
  return { paths, options, entries: new Map(), byStatus, invalid: new Map(), gen: new Map(), dirs: new Map(), closed: false };
}

/** Feeds watcher events into `update`, coalesced; a burst or an error becomes one full rescan. */
function watchEvents(state: State, update: (ids: string[]) => Promise<void>, rescan: (o: { full: boolean }) => Promise<void>): { ready: Promise<void>; close(): Promise<void> } {
  const pending = new Set<string>();
  let flush: NodeJS.Timeout | undefined;
  const watcher = watchTree(state.paths.tasks, (event: WatchEvent) => {
    if (state.closed) return;
    if (event.type === 'error') return fail(state, event.error, () => rescan({ full: true }));
    pending.add(event.id);
    flush ??= setTimeout(() => {
      flush = undefined;
      const ids = [...pending];
      pending.clear();
      void (ids.length > BURST ? rescan({ full: true }) : update(ids)).catch((err: unknown) => fail(state, err));
    }, 5);
  }, { statuses: ACTIVE_STATUSES });
  return {
    ready: watcher.ready,
    close: async () => {
      if (flush) clearTimeout(flush);
      await watcher.close();
    },
  };
}

function isActive(status: Status): boolean {
  return (ACTIVE_STATUSES as readonly Status[]).includes(status);
}

async function loadInitial(state: State): Promise<void> {
  const started = Date.now();
  const dirStats = await Promise.all(STATUSES.map((status) => statDir(state, status)));
  const names = await listNames(state.paths);
  const files: { id: string; status: Status }[] = [];
  for (const [id, statuses] of names) {
    for (const status of statuses) {
      if (status === 'done' || status === 'cancelled') state.byStatus[status].add(id);
      else files.push({ id, status });
    }
  }
  for (const file of files) loadFile(state, file, -1);
  STATUSES.forEach((status, i) => recordDir(state, status, dirStats[i], started));
}

/** Reads the terminal tasks counted by name, in small synchronous batches that yield to requests. */
async function loadTerminal(state: State): Promise<void> {
  const files: { id: string; status: Status; gen: number }[] = [];
  for (const status of ['done', 'cancelled'] as const) {
    for (const id of state.byStatus[status]) if (!state.entries.has(id)) files.push({ id, status, gen: state.gen.get(id) ?? 0 });
  }
  for (let i = 0; i < files.length && !state.closed; i += LOAD_BATCH) {
    await nextTurn();
    for (const file of files.slice(i, i + LOAD_BATCH)) loadFile(state, file, file.gen);
  }
}

/**
 * Reads one file found by a listing (synchronously: bulk loads are CPU-bound and the async file
 * API costs more than the read). A relocation of the id since `gen` wins over this read.
 */
function loadFile(state: State, file: { id: string; status: Status }, gen: number): void {
  if (gen !== -1 && (state.gen.get(file.id) ?? 0) !== gen) return;
  const path = state.paths.taskFile(file.status, file.id);
  let stamp: string | null = null;
  try {
    const s = statSync(path, { bigint: true });
    stamp = `${s.ino}:${s.size}:${s.mtimeNs}`;
    const entry = readEntrySync(path, file.status, file.id, stamp, Number(s.mtimeNs / 1_000_000n));
    const seen = state.entries.get(file.id);
    if (!seen || seen.status === file.status || isNewer(entry, seen)) setEntry(state, entry, true);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return void update1(state, file.id);
    state.byStatus[file.status].delete(file.id);
    setInvalid(state, path, file.status, err, stamp);
  }
}

/** The same checks as the store's `readTaskFile`, on a synchronous read, into a compact entry. */
function readEntrySync(path: string, status: Status, id: string, stamp: string, mtimeMs: number): IndexEntry {
  const parsed = parseFrontmatter(readFileSync(path, 'utf8'), path);
  const task = parseTask(parsed.data, path);
  if (task.id !== id) {
    throw new SvcError('validation_error', `${path}: the file name says ${JSON.stringify(toTaskId(basename(path)))} but the frontmatter id is ${JSON.stringify(task.id)}.`, 'Rename the file to <id>.md or fix the id field.');
  }
  return toEntry({ task, status, path, stamp, mtimeMs });
}

function update1(state: State, id: string): void {
  relocate(state, id).catch((err: unknown) => fail(state, err));
}

/** Finds every copy of `id`, reads the ones that changed, and keeps the newest valid copy. */
async function relocate(state: State, id: string, attempt = 0): Promise<void> {
  const gen = (state.gen.get(id) ?? 0) + 1;
  state.gen.set(id, gen);
  const copies = (await Promise.all(STATUSES.map((status) => stampOf(state.paths.taskFile(status, id)).then((stamp) => ({ status, stamp }))))).filter(
    (copy): copy is { status: Status; stamp: string } => copy.stamp !== null,
  );
  let best: IndexEntry | undefined;
  const bad: { path: string; status: Status; err: unknown; stamp: string }[] = [];
  for (const { status, stamp } of copies) {
    const path = state.paths.taskFile(status, id);
    const known = state.entries.get(id);
    if (known?.path === path && known.stamp === stamp) {
      if (!best || isNewer(known, best)) best = known;
      continue;
    }
    try {
      const entry = fromStored(await readTaskFile(path));
      if (!best || isNewer(entry, best)) best = entry;
    } catch (err) {
      if (hasCode(err, 'ENOENT') && attempt < 3) return relocate(state, id, attempt + 1);
      bad.push({ path, status, err, stamp });
    }
  }
  if (state.gen.get(id) !== gen) return;
  for (const status of STATUSES) state.invalid.delete(state.paths.taskFile(status, id));
  for (const b of bad) setInvalid(state, b.path, b.status, b.err, b.stamp);
  if (best) setEntry(state, best);
  else removeEntry(state, id);
}

async function syncDir(state: State, status: Status, mode: 'stat' | 'names'): Promise<string[]> {
  const started = Date.now();
  const dirStat = await statDir(state, status);
  const names = await readdir(state.paths.statusDir(status)).catch((err: unknown) => (hasCode(err, 'ENOENT') ? [] : Promise.reject(err)));
  const seen = new Set<string>();
  const toStat: string[] = [];
  const candidates: string[] = [];
  for (const name of names) {
    const id = toTaskId(name);
    if (!id) continue;
    seen.add(id);
    const known = state.entries.get(id);
    if (known ? known.status === status && mode === 'names' : state.byStatus[status].has(id)) continue;
    const path = known?.status === status ? known.path : state.paths.taskFile(status, id);
    if (known?.status !== status && state.invalid.has(path) && mode === 'names') continue;
    if (mode === 'stat' && (known?.status === status || state.invalid.has(path))) toStat.push(id);
    else candidates.push(id);
  }
  await forEachLimit(toStat, 64, async (id) => {
    const path = state.paths.taskFile(status, id);
    const stamp = await stampOf(path);
    if (stamp !== (state.entries.get(id)?.stamp ?? state.invalid.get(path)?.stamp)) candidates.push(id);
  });
  for (const id of state.byStatus[status]) if (!seen.has(id)) candidates.push(id);
  recordDir(state, status, dirStat, started);
  return candidates;
}

async function isDirty(state: State, status: Status): Promise<boolean> {
  const seen = state.dirs.get(status);
  const now = await statDir(state, status);
  if (!seen || !now) return !!now !== !!seen;
  return now.mtimeNs !== seen.mtimeNs || Number(now.mtimeNs / 1_000_000n) >= seen.syncedAt - RACY_MS;
}

/** Sets the entry of an id; `quiet` for bulk loads, which are no change. */
function setEntry(state: State, entry: IndexEntry, quiet = false): void {
  const before = state.entries.get(entry.id);
  for (const status of STATUSES) if (status !== entry.status) state.byStatus[status].delete(entry.id);
  state.byStatus[entry.status].add(entry.id);
  state.entries.set(entry.id, entry);
  if (!quiet && before?.status !== entry.status) notify(state, { id: entry.id, ...(before ? { from: before.status } : {}), to: entry.status });
}

function removeEntry(state: State, id: string): void {
  const before = state.entries.get(id);
  for (const status of STATUSES) state.byStatus[status].delete(id);
  state.entries.delete(id);
  if (before) notify(state, { id, from: before.status });
}

function setInvalid(state: State, path: string, status: Status, err: unknown, stamp: string | null): void {
  const message = err instanceof Error ? err.message : String(err);
  const seen = state.invalid.get(path);
  state.invalid.set(path, { path, status, message, stamp: stamp ?? '' });
  if (seen?.message !== message || seen.stamp !== stamp) call(state, () => state.options.onInvalid?.({ path, status, message }));
}

function notify(state: State, change: IndexChange): void {
  call(state, () => state.options.onChange?.(change));
}

function call(state: State, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    fail(state, err);
  }
}

function fail(state: State, err: unknown, then?: () => Promise<void>): void {
  if (state.closed) return;
  state.options.onError?.(err);
  then?.().catch((next: unknown) => state.options.onError?.(next));
}

function fromStored(stored: StoredTask): IndexEntry {
  const { ino, size, mtimeNs } = stored.stamp;
  return toEntry({ task: stored.task, status: stored.status, path: stored.path, stamp: `${ino}:${size}:${mtimeNs}`, mtimeMs: Number(mtimeNs / 1_000_000n) });
}

/** Builds an entry from fresh copies of the fields: parser strings are slices that pin the whole file text. */
function toEntry(read: { task: StoredTask['task']; status: Status; path: string; stamp: string; mtimeMs: number }): IndexEntry {
  const { task, status, path, stamp, mtimeMs } = read;
  const fields = JSON.parse(JSON.stringify({ id: task.id, title: task.title, priority: task.priority, routing: task.routing, dependsOn: task.dependsOn, lease: task.lease, createdAt: task.createdAt, updatedAt: task.updatedAt })) as Pick<IndexEntry, 'id' | 'title' | 'priority' | 'routing' | 'dependsOn' | 'lease' | 'createdAt' | 'updatedAt'>;
  const entry: IndexEntry = { ...fields, status, path, mtimeMs, stamp };
  if (!entry.lease) delete entry.lease;
  const agent = entry.lease?.agent ?? entry.routing.agent;
  if (agent) entry.agent = agent;
  return entry;
}

/** The later `updatedAt` wins, then the later file time (as in the store's `byNewest`). */
function isNewer(a: IndexEntry, b: IndexEntry): boolean {
  const byUpdated = Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
  return byUpdated !== 0 ? byUpdated > 0 : a.mtimeMs > b.mtimeMs;
}

async function stampOf(path: string): Promise<string | null> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    throw err;
  }
}

async function statDir(state: State, status: Status): Promise<{ mtimeNs: bigint } | null> {
  return stat(state.paths.statusDir(status), { bigint: true }).catch((err: unknown) => (hasCode(err, 'ENOENT') ? null : Promise.reject(err)));
}

function recordDir(state: State, status: Status, dirStat: { mtimeNs: bigint } | null | undefined, syncedAt: number): void {
  if (dirStat) state.dirs.set(status, { mtimeNs: dirStat.mtimeNs, syncedAt });
  else state.dirs.delete(status);
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
    queued ??= running.catch(() => undefined).then(() => ((queued = null), run()));
    return queued;
  };
  return run;
}

async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}
