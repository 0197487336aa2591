import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { toPaths } from '../disk/paths.js';

/** How long the answer of a request id is kept (docs/daemon.md). */
export const REQUEST_TTL_MS = 24 * 3_600_000;
/** The most request records kept; past it the oldest go first. */
export const MAX_REQUEST_RECORDS = 10_000;
/** The most bytes of request records kept; past it the oldest go first. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** Limits of `pruneRequests` (tests pass small ones). */
export interface PruneLimits {
  ttlMs: number;
  maxRecords: number;
  maxBytes: number;
}

/**
 * Removes the records of `data/requests/` older than the TTL, then the oldest ones while more
 * than `maxRecords` or `maxBytes` are left, and temporaries of writes killed over ten minutes
 * ago. Returns how many files it removed.
 */
export async function pruneRequests(root: string, now: Date, limits: PruneLimits = DEFAULT_LIMITS): Promise<number> {
  const dir = toPaths(root).requests;
  const names = await readdir(dir).catch(() => [] as string[]);
  const records: { file: string; mtimeMs: number; size: number }[] = [];
  let removed = 0;
  for (const name of names) {
    const file = join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) continue;
    if (/^[0-9a-f]{40}\.json$/.test(name)) records.push({ file, mtimeMs: info.mtimeMs, size: info.size });
    else if (
      now.getTime() - info.mtimeMs > TEMP_TTL_MS &&
      (await unlink(file).then(
        () => true,
        () => false,
      ))
    )
      removed++; // a temporary of a killed write
  }
  records.sort((a, b) => a.mtimeMs - b.mtimeMs);
  let bytes = records.reduce((sum, r) => sum + r.size, 0);
  let left = records.length;
  for (const record of records) {
    const expired = now.getTime() - record.mtimeMs > limits.ttlMs;
    if (!expired && left <= limits.maxRecords && bytes <= limits.maxBytes) break;
    if (
      await unlink(record.file).then(
        () => true,
        () => false,
      )
    )
      removed++;
    left--;
    bytes -= record.size;
  }
  return removed;
}

/** Prunes `root`'s request records in the background, at most once a minute per process. */
export function pruneRequestsSoon(root: string, now: Date): void {
  const last = lastPrune.get(root) ?? -Infinity;
  if (now.getTime() - last < PRUNE_EVERY_MS) return;
  lastPrune.set(root, now.getTime());
  void pruneRequests(root, now).catch(() => undefined);
}

// --- internal ---

const DEFAULT_LIMITS: PruneLimits = {
  ttlMs: REQUEST_TTL_MS,
  maxRecords: MAX_REQUEST_RECORDS,
  maxBytes: MAX_REQUEST_BYTES,
};
const PRUNE_EVERY_MS = 60_000;
const TEMP_TTL_MS = 10 * 60_000;
const lastPrune = new Map<string, number>();
