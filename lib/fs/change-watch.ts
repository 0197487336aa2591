import { watch, type FSWatcher } from 'node:fs';
import { isNetworkDir } from './network-fs.js';

/** Options of `watchChanges`. */
export interface ChangeWatchOptions {
  /** How often to look when change events cannot be had (a network filesystem, or a watch that failed): 500 ms. */
  pollMs?: number;
}

/** A watch; `close()` stops it. */
export interface ChangeWatch {
  close(): void;
}

/**
 * Calls `onChange` when something in `dir` (a file written, created or removed) may have changed:
 * from `fs.watch` on a local disk; every `pollMs` on a network filesystem, whose clients do not see
 * another host's writes as events, or once the watch fails. Calls may be spurious: the caller looks.
 */
export function watchChanges(dir: string, onChange: () => void, options: ChangeWatchOptions = {}): ChangeWatch {
  let watcher: FSWatcher | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const poll = () => {
    watcher?.close();
    watcher = null;
    if (!closed && !timer) timer = setInterval(onChange, options.pollMs ?? 500);
  };
  if (isNetworkDir(dir)) poll();
  else {
    try {
      watcher = watch(dir, { persistent: true }, () => onChange());
      watcher.on('error', () => {
        poll();
        onChange();
      });
    } catch {
      poll();
    }
  }
  return {
    close() {
      closed = true;
      watcher?.close();
      if (timer) clearInterval(timer);
    },
  };
}
