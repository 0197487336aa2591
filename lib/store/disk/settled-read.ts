import { setTimeout as sleep } from 'node:timers/promises';
import { isGone } from '../../core/errors.js';
import { readTaskFile, type StoredTask } from './task-file.js';

/** How long a reader waits before reading a file that failed to parse a second time. */
export const REREAD_DELAY_MS = 200;

/** What a reader does between a failed read and the second one (tests pass their own). */
export type Pause = () => Promise<void>;

/**
 * Reads a task file; one that fails to parse is read once more after `pause` before it counts as
 * invalid: a writer that does not replace files atomically may be mid-write, and right after a
 * move or a size change a network filesystem may serve a size it cached before another host
 * rewrote the file. A file that is gone (ENOENT) is not read again: it moved.
 */
export async function readTaskFileSettled(path: string, pause: Pause = pauseBeforeReread): Promise<StoredTask> {
  try {
    return await readTaskFile(path);
  } catch (err) {
    if (isGone(err)) throw err;
    await pause();
    return readTaskFile(path);
  }
}

/** The default pause: `REREAD_DELAY_MS`. */
export function pauseBeforeReread(): Promise<void> {
  return sleep(REREAD_DELAY_MS);
}
