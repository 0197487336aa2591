import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isSafeId } from '../core/ids.js';
import { STATUSES, type Status } from '../core/status.js';
import { toError } from '../core/errors.js';

/** A task file that appeared, changed or went away in a status directory. */
export interface TaskFileEvent {
  type: 'add' | 'change' | 'unlink';
  status: Status;
  id: string;
  path: string;
}

/** What the watcher reports: file events, and errors (never thrown). */
export type WatchEvent = TaskFileEvent | { type: 'error'; error: Error };

/** Options of `watchTree`. */
export interface WatchTreeOptions {
  /** The status directories to watch (all by default). */
  statuses?: readonly Status[];
}

/** A running watcher: `ready` resolves once the directories are watched. */
export interface TreeWatcher {
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Watches `<dir>/<status>/` for `<id>.md` files: one OS watch per status directory (node's
 * `fs.watch`), whatever the number of tasks, and O(1) work per event. Dotfiles, temporaries and
 * other names are ignored. A latency hint only: the OS may drop or merge events, and a directory
 * that is deleted and re-created is watched again by `rearm()` (the index's rescan is the truth).
 */
export function watchTree(
  dir: string,
  onEvent: (event: WatchEvent) => void,
  options: WatchTreeOptions = {},
): TreeWatcher & { rearm(): void } {
  const root = resolve(dir);
  const watchers = new Map<Status, { watcher: FSWatcher; identity: string }>();
  let closed = false;
  const arm = (status: Status) => {
    const statusDir = join(root, status);
    const stat = statSync(statusDir, { throwIfNoEntry: false });
    const identity = stat ? `${stat.ino}:${stat.birthtimeMs}` : undefined; // inode numbers are reused at once
    const current = watchers.get(status);
    if (closed || (current && current.identity === identity)) return;
    current?.watcher.close(); // the directory was deleted (and maybe re-created): watch the new one
    watchers.delete(status);
    if (identity === undefined) return;
    try {
      const watcher = watch(statusDir, { persistent: false }, (eventType, name) =>
        report({ statusDir, status, onEvent }, eventType, name),
      );
      watcher.on('error', (error) => {
        watchers.delete(status);
        watcher.close();
        safely(onEvent, { type: 'error', error });
      });
      watchers.set(status, { watcher, identity });
    } catch (err) {
      safely(onEvent, { type: 'error', error: toError(err) });
    }
  };
  const statuses = options.statuses ?? STATUSES;
  statuses.forEach(arm);
  return {
    ready: Promise.resolve(),
    rearm: () => statuses.forEach(arm),
    async close() {
      closed = true;
      for (const { watcher } of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

// --- internal ---

/** `dir`: the status directory watched, its status, and where its events go. */
function report(
  dir: { statusDir: string; status: Status; onEvent: (event: WatchEvent) => void },
  eventType: string,
  name: string | Buffer | null,
): void {
  const { statusDir, status, onEvent } = dir;
  if (name === null)
    return safely(onEvent, {
      type: 'error',
      error: new Error(`${statusDir}: a watch event without a file name (events may have been lost)`),
    });
  const id = toTaskId(name.toString());
  if (!id) return;
  const path = join(statusDir, `${id}.md`);
  const type = eventType === 'change' ? 'change' : existsSync(path) ? 'add' : 'unlink';
  safely(onEvent, { type, status, id, path });
}

/** The id of `<id>.md`, or null for dotfiles, temporaries and other names. */
function toTaskId(name: string): string | null {
  if (name.startsWith('.') || !name.endsWith('.md')) return null;
  const id = basename(name).slice(0, -3);
  return isSafeId(id) ? id : null;
}

function safely(onEvent: (event: WatchEvent) => void, event: WatchEvent): void {
  try {
    onEvent(event);
  } catch {
    // a listener's failure must not stop the watcher; the index logs its own errors
  }
}
