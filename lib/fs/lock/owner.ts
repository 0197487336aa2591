import { lstatSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readRegularFileSync } from '../regular-file.js';

/** How long a lock lives without being refreshed before another process may take it. */
export const LOCK_STALE_MS = 10_000;

/**
 * The owner recorded in a lock directory (`<host> <pid>`, see `fs/lock/lock.ts`) when it is on this
 * host, and whether the lock is fresh (refreshed within `LOCK_STALE_MS`). Light on purpose: the
 * command line reads it without loading proper-lockfile.
 */
export function readLockOwner(lockPath: string): { pid: number; fresh: boolean } | null {
  const text = readOwnerText(lockPath);
  const [host, pidText] = (text ?? '').trim().split(' ');
  const pid = Number(pidText);
  if (text === null || host !== hostname() || !Number.isSafeInteger(pid) || pid <= 0) return null;
  let fresh = false;
  try {
    fresh = lstatSync(lockPath).mtimeMs > Date.now() - LOCK_STALE_MS;
  } catch {
    fresh = false;
  }
  return { pid, fresh };
}

/** The raw owner text of a lock directory (a symlink `owner`, or a file of that name), or null. */
export function readOwnerText(lockPath: string): string | null {
  try {
    return readlinkSync(join(lockPath, 'owner'));
  } catch {
    try {
      // not readFileSync: a failed close on a network tree would abort
      return readRegularFileSync(join(lockPath, 'owner'), 4096).text.trim();
    } catch {
      return null;
    }
  }
}
