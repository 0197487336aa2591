import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * fsyncs a directory, so renames and unlinks in it are on disk. Apart from `atomic.ts` so that the
 * readers of task files (`regular-file.ts`, and through it the lock owner's check) load no writer
 * library: the command line's light commands stay light.
 */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
