import { basename, dirname, join, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isSafeId } from '../core/ids.js';
import { isStatus, STATUSES, type Status } from '../core/status.js';

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
  /** The status directories to watch (all by default). Each watched file costs one OS watch. */
  statuses?: readonly Status[];
}

/** A running watcher: `ready` resolves once the directories are watched. */
export interface TreeWatcher {
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Watches `<dir>/<status>/` for `<id>.md` files (chokidar). Dotfiles, temporaries and anything
 * that is not a task file name are ignored. A latency hint only: the OS may drop events.
 */
export function watchTree(dir: string, onEvent: (event: WatchEvent) => void, options: WatchTreeOptions = {}): TreeWatcher {
  const roots = (options.statuses ?? STATUSES).map((status) => join(resolve(dir), status));
  const rootSet = new Set(roots);
  const watcher: FSWatcher = watch(roots, {
    ignoreInitial: true,
    depth: 0,
    ignored: (path: string) => !rootSet.has(path) && toTaskFile(path) === null,
  });
  const report = (type: TaskFileEvent['type']) => (path: string) => {
    const file = toTaskFile(path);
    if (file && rootSet.has(dirname(path))) safely(onEvent, { type, ...file, path });
  };
  watcher.on('add', report('add'));
  watcher.on('change', report('change'));
  watcher.on('unlink', report('unlink'));
  watcher.on('error', (error: unknown) => safely(onEvent, { type: 'error', error: error instanceof Error ? error : new Error(String(error)) }));
  const ready = new Promise<void>((done) => watcher.once('ready', () => done()));
  return {
    ready,
    close: () => watcher.close(),
  };
}

// --- internal ---

/** The status and id of `<status>/<id>.md`, or null for dotfiles, temporaries and other names. */
function toTaskFile(path: string): { status: Status; id: string } | null {
  const name = basename(path);
  if (name.startsWith('.') || !name.endsWith('.md')) return null;
  const id = name.slice(0, -3);
  const status = basename(dirname(path));
  return isSafeId(id) && isStatus(status) ? { status, id } : null;
}

function safely(onEvent: (event: WatchEvent) => void, event: WatchEvent): void {
  try {
    onEvent(event);
  } catch {
    // a listener's failure must not stop the watcher; the index logs its own errors
  }
}
