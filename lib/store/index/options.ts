import type { Status } from '../../core/status.js';
import type { InvalidFile } from '../commit/store.js';

/**
 * A task that appeared, moved or went away after the initial load (`from`/`to` absent on appear/vanish; both blocked
 * when it waits at a next approval gate).
 */
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
  /** Watch the active directories (default true). */
  watch?: boolean;
  onInvalid?: (file: InvalidFile) => void;
  onChange?: (change: IndexChange) => void;
  /**
   * A task's entry was set or removed after the initial load, its status changed or not (a title, a lease, a priority).
   */
  onTouched?: (id: string) => void;
  /**
   * A file needs the commit protocol's repair: its frontmatter status differs from its directory (moved by hand), or
   * its id is in two directories.
   */
  onNeedsRepair?: (id: string, why: 'moved' | 'duplicate') => void;
  /** A rescan found files the index did not have, or had older versions of (missed or dropped watcher events). */
  onRescanFound?: (found: { count: number; full: boolean }) => void;
  onError?: (err: unknown) => void;
  /**
   * A commit of this id is under way in this process: its watcher events wait for the commit's end (`settled`), when
   * the index has the commit's result.
   */
  inFlight?: (id: string) => boolean;
  /**
   * Foreground work is under way (a tick, a dispatch): the background load of done and cancelled tasks pauses for it.
   */
  busy?: () => boolean;
  /**
   * What happens between a read that fails to parse and the second read (default: a short pause; tests pass their own).
   */
  beforeReread?: () => Promise<void>;
}
