import { lstatSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { describeError, hasCode, isGone } from '../../core/errors.js';
import { STATUSES, type Status } from '../../core/status.js';
import { toTaskId } from '../disk/paths.js';
import { readTaskFileSettled } from '../disk/settled-read.js';
import { inSlices } from './slices.js';
import { fromStored, readEntrySync, toStamp, type IndexEntry } from './entry.js';
import { stampsOf } from './file-stamps.js';
import type { IndexChange } from './options.js';
import { fail, type IndexState } from './state.js';

// The task index's bookkeeping: reading files into entries, finding the copies of an id, syncing a
// directory listing against the entries. `tasks.ts` wires it to the watcher and the timers.

/**
 * Reads one file found by a listing (synchronously: bulk loads are CPU-bound and the async file
 * API costs more than the read). A relocation of the id since `gen` wins over this read. A file
 * that fails to parse is handed to `relocate`, which reads it again before judging it invalid;
 * the promise of that is returned.
 */
export function loadFile(
  state: IndexState,
  file: { id: string; status: Status },
  gen: number,
): Promise<void> | undefined {
  if (gen !== -1 && (state.gen.get(file.id) ?? 0) !== gen) return undefined;
  const path = state.paths.taskFile(file.status, file.id);
  try {
    const s = lstatSync(path);
    const entry = readEntrySync(state.paths, file, toStamp(s));
    const seen = state.entries.get(file.id);
    if (!seen || seen.status === file.status || isNewer(entry, seen)) setEntry(state, entry, true);
    return undefined;
  } catch (err) {
    if (!isGone(err)) state.byStatus[file.status].delete(file.id);
    return relocate(state, file.id).catch((next: unknown) => fail(state, next));
  }
}

/**
 * Finds every copy of `id`, reads each (a name that no longer opens is no copy: it moved, or a
 * network filesystem listed it from its cache), and keeps the newest valid copy. A file that fails
 * to parse is read a second time before it counts as invalid (`readTaskFileSettled`).
 */
export async function relocate(state: IndexState, id: string, attempt = 0): Promise<void> {
  const gen = (state.gen.get(id) ?? 0) + 1;
  state.gen.set(id, gen);
  const stamps = await stampsOf(
    state.paths.tasks,
    STATUSES.map((status) => state.paths.taskFile(status, id)),
  );
  const copies = STATUSES.map((status, i) => ({ status, stamp: stamps[i] ?? null })).filter(
    (copy): copy is { status: Status; stamp: string } => copy.stamp !== null,
  );
  let best: IndexEntry | undefined;
  let found = 0;
  let gone = false;
  const bad: BadFile[] = [];
  for (const { status, stamp } of copies) {
    const path = state.paths.taskFile(status, id);
    try {
      const entry = fromStored(state.paths, await readTaskFileSettled(path, state.options.beforeReread), stamp);
      found++;
      if (!best || isNewer(entry, best)) best = entry;
    } catch (err) {
      if (isGone(err)) {
        gone = true;
        continue;
      }
      found++;
      bad.push({ path, status, err, stamp });
    }
  }
  // moved meanwhile: find its new place
  if (gone && found === 0 && attempt < 3) return relocate(state, id, attempt + 1);
  if (state.gen.get(id) !== gen) return;
  if (found > 1) call(state, () => state.options.onNeedsRepair?.(id, 'duplicate'));
  for (const status of STATUSES) state.invalid.delete(state.paths.taskFile(status, id));
  for (const b of bad) setInvalid(state, b);
  if (best) setEntry(state, best);
  else removeEntry(state, id);
}

/** Lists a directory and returns the ids to relocate: new, gone, moved, or (`stat` mode) changed files. */
export async function syncDir(state: IndexState, status: Status, mode: 'stat' | 'names'): Promise<string[]> {
  const started = Date.now();
  const dirStat = await statDir(state, status);
  const names = await readdir(state.paths.statusDir(status)).catch((err: unknown) =>
    hasCode(err, 'ENOENT') ? [] : Promise.reject(err),
  );
  const seen = new Set<string>();
  const toStat: string[] = [];
  const candidates: string[] = [];
  await inSlices(names, (name) => {
    const id = toTaskId(name);
    if (!id) return;
    seen.add(id);
    const known = state.entries.get(id);
    if (known ? known.status === status && mode === 'names' : state.byStatus[status].has(id)) return;
    const path = known?.status === status ? known.path : state.paths.taskFile(status, id);
    if (known?.status !== status && state.invalid.has(path) && mode === 'names') return;
    if (mode === 'stat' && (known?.status === status || state.invalid.has(path))) toStat.push(id);
    else candidates.push(id);
  });
  const paths = toStat.map((id) => state.paths.taskFile(status, id));
  const stamps = await stampsOf(state.paths.tasks, paths);
  toStat.forEach((id, i) => {
    if (stamps[i] !== (state.entries.get(id)?.stamp ?? state.invalid.get(paths[i]!)?.stamp)) candidates.push(id);
  });
  for (const id of state.byStatus[status]) if (!seen.has(id)) candidates.push(id);
  recordDir(state, status, { dirStat, syncedAt: started });
  return candidates;
}

/** True when a directory changed since its last sync (or may have, within the timestamp granularity). */
export async function isDirty(state: IndexState, status: Status): Promise<boolean> {
  const seen = state.dirs.get(status);
  const now = await statDir(state, status);
  if (!seen || !now) return !!now !== !!seen;
  const racyMs = now.mtimeNs % 1_000_000_000n === 0n ? RACY_MS.coarse : RACY_MS.fine;
  return now.mtimeNs !== seen.mtimeNs || Number(now.mtimeNs / 1_000_000n) >= seen.syncedAt - racyMs;
}

/** The mtime (ns) of a status directory, or null when it is missing. */
export async function statDir(state: IndexState, status: Status): Promise<{ mtimeNs: bigint } | null> {
  return stat(state.paths.statusDir(status), { bigint: true }).catch((err: unknown) =>
    hasCode(err, 'ENOENT') ? null : Promise.reject(err),
  );
}

/** Remembers a directory's mtime as of a sync that began at `syncedAt`. */
export function recordDir(
  state: IndexState,
  status: Status,
  { dirStat, syncedAt }: { dirStat: { mtimeNs: bigint } | null | undefined; syncedAt: number },
): void {
  if (dirStat) state.dirs.set(status, { mtimeNs: dirStat.mtimeNs, syncedAt });
  else state.dirs.delete(status);
}

// --- internal ---

/**
 * A directory mtime this close to the last sync may hide a change made in the same clock tick:
 * a few ms where timestamps carry nanoseconds (the kernel's coarse clock), 2 s where they are whole seconds.
 */
const RACY_MS = { fine: 20, coarse: 2000 };

/**
 * Sets the entry of an id; `quiet` for bulk loads, which are no change. A new `awaiting` of a blocked task is a change
 * from blocked to blocked.
 */
export function setEntry(state: IndexState, entry: IndexEntry, quiet = false): void {
  const before = state.entries.get(entry.id);
  if (before)
    entry.id = before.id; // one string per id, shared by the map, the sets and the entry
  else rekeyGen(state, entry.id);
  for (const status of STATUSES) if (status !== entry.status) state.byStatus[status].delete(entry.id);
  state.byStatus[entry.status].add(entry.id);
  state.entries.set(entry.id, entry);
  if (entry.moved) call(state, () => state.options.onNeedsRepair?.(entry.id, 'moved'));
  const waitsAgain = entry.awaiting !== undefined && before?.awaiting?.since !== entry.awaiting.since;
  if (!quiet && (before?.status !== entry.status || waitsAgain))
    notify(state, { id: entry.id, ...(before ? { from: before.status } : {}), to: entry.status });
  if (!quiet && (before?.stamp !== entry.stamp || before.status !== entry.status))
    call(state, () => state.options.onTouched?.(entry.id));
}

/**
 * Keys an id's generation by the entry's id string: an id from a watcher event is cut from a file name, which the key
 * would keep alive.
 */
function rekeyGen(state: IndexState, id: string): void {
  const gen = state.gen.get(id);
  if (gen === undefined) return;
  state.gen.delete(id);
  state.gen.set(id, gen);
}

function removeEntry(state: IndexState, id: string): void {
  const before = state.entries.get(id);
  for (const status of STATUSES) state.byStatus[status].delete(id);
  state.entries.delete(id);
  if (before) notify(state, { id, from: before.status });
  if (before) call(state, () => state.options.onTouched?.(id));
}

/** A task file that could not be read: where, and why. */
interface BadFile {
  path: string;
  status: Status;
  err: unknown;
  stamp: string | null;
}

function setInvalid(state: IndexState, { path, status, err, stamp }: BadFile): void {
  const message = describeError(err);
  const seen = state.invalid.get(path);
  state.invalid.set(path, { path, status, message, stamp: stamp ?? '' });
  if (seen?.message !== message || seen.stamp !== stamp)
    call(state, () => state.options.onInvalid?.({ path, status, message }));
}

function notify(state: IndexState, change: IndexChange): void {
  call(state, () => state.options.onChange?.(change));
}

function call(state: IndexState, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    fail(state, err);
  }
}

/** The later `updatedAt` wins, then the later file time (as in the store's `byNewest`). */
export function isNewer(a: IndexEntry, b: IndexEntry): boolean {
  const byUpdated = Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
  return byUpdated !== 0 ? byUpdated > 0 : a.mtimeMs > b.mtimeMs;
}
