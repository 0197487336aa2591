import { isNetworkDir } from '../../fs/network-fs.js';

/**
 * On a network filesystem, one rescan in this many stats every file of the active directories;
 * the others list only the directories whose mtime changed.
 */
export const NETWORK_STAT_EVERY = 5;

/**
 * How the index syncs an active status directory: `mode` of `syncDir`, and whether even an unchanged directory is
 * synced.
 */
export interface ActiveSync {
  mode: 'stat' | 'names';
  always: boolean;
}

/**
 * How a rescan (`pass`, its number) or a refresh before a tool call (`pass` null) syncs the active
 * directories. On a local disk every file is stat'ed (microseconds each; the watcher sees the rest).
 * On a network filesystem each stat is a round trip and the watcher sees no other host's change, so
 * a directory is listed only when its mtime moved, and its known files are not stat'ed: every
 * change svc makes renames or creates a name, which moves the mtime; a file rewritten in place by
 * hand on another host is seen by the stat pass of every NETWORK_STAT_EVERY-th rescan (a commit
 * re-reads the file under its lock, so a stale entry delays a change, never corrupts one).
 */
export function activeSync(tasks: string, pass: number | null): ActiveSync {
  if (!isNetworkDir(tasks)) return { mode: 'stat', always: pass !== null };
  if (pass !== null && pass % NETWORK_STAT_EVERY === 0) return { mode: 'stat', always: true };
  return { mode: 'names', always: false };
}
