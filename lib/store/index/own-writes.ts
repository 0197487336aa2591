import { isNetworkDir } from '../../fs/network-fs.js';
import type { StoredTask } from '../disk/task-file.js';
import { fromStored } from './entry.js';
import { stampOf } from './file-stamps.js';
import { isNewer, setEntry } from './sync.js';
import type { IndexState } from './state.js';

// The daemon's own writes: the index takes a commit's result as it is (no stat, no read, no parse), and the
// watcher's events that only echo such a write are dropped after one stat of the file written.

/**
 * How long after the daemon wrote a file a watcher event of its id may be the echo of that write (the events
 * come within milliseconds; a busy event loop delays them). Past it, an event is read as any other.
 */
export const OWN_ECHO_MS = 1000;

/**
 * Sets the entry of a task from a commit's result: the file the commit wrote, its stamp taken after the write. A
 * result older than the entry (two commits of one id answered out of order) is not applied. False when the result
 * carries no stamp (its file was gone at once): the caller reads the id instead.
 */
export function applyStored(state: IndexState, stored: StoredTask): boolean {
  const stamp = fromFileStamp(stored.stamp);
  if (stamp === null || state.closed) return false;
  const entry = fromStored(state.paths, stored, stamp);
  const seen = state.entries.get(entry.id);
  if (seen && isNewer(seen, entry)) return true;
  // A relocation of the id under way read the disk before this: its result gives way.
  state.gen.set(entry.id, (state.gen.get(entry.id) ?? 0) + 1);
  state.invalid.delete(stored.path);
  if (seen && seen.path !== stored.path) state.invalid.delete(seen.path);
  setEntry(state, entry);
  state.own.set(entry.id, { stamp, at: Date.now() });
  return true;
}

/** The entry of `id` is the daemon's own write, applied within `OWN_ECHO_MS` and not replaced since. */
export function isOwnFresh(state: IndexState, id: string): boolean {
  const own = state.own.get(id);
  if (!own) return false;
  if (Date.now() - own.at > OWN_ECHO_MS) {
    state.own.delete(id);
    return false;
  }
  return state.entries.get(id)?.stamp === own.stamp;
}

/**
 * A watcher event of `id` only echoes the daemon's own write: the entry is that write, and the file at its path
 * still has the stamp written (a hand edit since, in place or by rename, has another). Never on a network
 * filesystem, whose stats may be cached and which the index reads as before.
 */
export function isOwnEcho(state: IndexState, id: string): boolean {
  if (!isOwnFresh(state, id) || isNetworkDir(state.paths.tasks)) return false;
  const entry = state.entries.get(id)!;
  return stampOf(entry.path) === entry.stamp;
}

/**
 * A watcher event of `id` may bring news: not while a commit of the id is in flight in this process (held until it
 * ends: `heldNews`), nor when it only echoes the daemon's own write.
 */
export function isNews(state: IndexState, id: string): boolean {
  if (state.options.inFlight?.(id)) {
    state.deferred.add(id);
    return false;
  }
  return !isOwnEcho(state, id);
}

/**
 * The ids whose events were held for a commit of `id` that ended, and that bring news. Null: a create ended; its
 * task is in the index now, so an id held that the index still lacks is no create of this process that ended (a
 * file made by hand, or another create under way): it waits no longer.
 */
export function heldNews(state: IndexState, id: string | null): string[] {
  const unheld = (d: string) => !state.entries.has(d) || !state.options.inFlight?.(d);
  const held = id === null ? [...state.deferred].filter(unheld) : [id];
  return held.filter((d) => state.deferred.delete(d) && !isOwnEcho(state, d));
}

/** Forgets the own writes older than `OWN_ECHO_MS`. */
export function pruneOwn(state: IndexState): void {
  const now = Date.now();
  for (const [id, own] of state.own) if (now - own.at > OWN_ECHO_MS) state.own.delete(id);
}

/**
 * The index's stamp (`<inode>:<size>:<mtimeMs>`, as `toStamp` makes it from a stat) of a store's `FileStamp`, with
 * the milliseconds computed as node computes a stat's `mtimeMs`; null for the empty stamp of a file gone.
 */
export function fromFileStamp(stamp: StoredTask['stamp']): string | null {
  if (stamp.ino === 0n) return null;
  const seconds = stamp.mtimeNs / 1_000_000_000n;
  const nanos = stamp.mtimeNs % 1_000_000_000n;
  return [Number(stamp.ino), Number(stamp.size), Number(seconds) * 1000 + Number(nanos) / 1_000_000].join(':');
}
