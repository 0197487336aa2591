import { readdir } from 'node:fs/promises';
import { hasCode } from '../../core/errors.js';
import { formatTaskId, toIdDate, toSeq } from '../../core/ids.js';
import { STATUSES } from '../../core/status.js';
import { createEmptyExclusive, ensureDir } from '../../fs/atomic.js';
import { findTaskFiles } from './copies.js';
import type { Paths } from '../disk/paths.js';

/** Next sequence number to try, per reservation directory (a hint: the reservation decides). */
const hints = new Map<string, number>();
/** The first look at a reservation directory, shared by the allocations that start meanwhile. */
const firstLooks = new Map<string, Promise<number>>();

/**
 * Allocates the next `TASK-<date>-<seq>` id. Each id is reserved by creating the empty file
 * `tasks/.seq/<date>/<seq>` exclusively (`open wx`), so two processes, or two hosts sharing the
 * tree, never get the same number, without a lock. A create that fails for a name that exists
 * (EEXIST, or EPERM on sshfs) means the number is taken. The first allocation of a day starts past the
 * highest reservation, or past the highest id in the tree when there is none (after a clone);
 * an id found on disk is skipped. Concurrent allocations in one process try different numbers (each
 * takes the next from the hint), so a burst of N costs about N creates, not N²/2 (each a round trip
 * on a network filesystem).
 */
export async function allocateId(paths: Paths, now: Date): Promise<string> {
  const date = toIdDate(now);
  const dir = paths.seqDir(date);
  for (;;) {
    const seq = await nextSeq(paths, dir, date);
    if (!(await reserve(dir, seq))) continue;
    const id = formatTaskId(date, seq);
    if ((await findTaskFiles(paths, id)).length === 0) return id;
  }
}

// --- internal ---

/**
 * Takes the next number to try in `dir` (a number taken by another host fails its reservation and the next is taken).
 */
async function nextSeq(paths: Paths, dir: string, date: string): Promise<number> {
  if (!hints.has(dir)) {
    let look = firstLooks.get(dir);
    if (!look) {
      look = firstFree(paths, dir, date);
      firstLooks.set(dir, look);
      void look.finally(() => firstLooks.delete(dir)).catch(() => undefined);
    }
    const first = await look;
    if (!hints.has(dir)) hints.set(dir, first);
  }
  const seq = hints.get(dir)!;
  hints.set(dir, seq + 1);
  return seq;
}

async function reserve(dir: string, seq: number): Promise<boolean> {
  try {
    return await createEmptyExclusive(`${dir}/${seq}`);
  } catch (err) {
    if (!hasCode(err, 'ENOENT')) throw err;
    await ensureDir(dir);
    return reserve(dir, seq);
  }
}

async function firstFree(paths: Paths, dir: string, date: string): Promise<number> {
  const reserved = await readdir(dir).catch((err: unknown) => {
    if (hasCode(err, 'ENOENT')) return [] as string[];
    throw err;
  });
  const highest = reserved.reduce((max, name) => Math.max(max, /^\d+$/.test(name) ? Number(name) : 0), 0);
  return (highest > 0 ? highest : await scanHighestSeq(paths, date)) + 1;
}

async function scanHighestSeq(paths: Paths, date: string): Promise<number> {
  let highest = 0;
  // A task of this date archived since is in the archive of this month (its last transition was on or after it).
  for (const dir of [...STATUSES.map((status) => paths.statusDir(status)), paths.archiveDir(date.slice(0, 7))]) {
    const names = await readdir(dir).catch((err: unknown) => {
      if (hasCode(err, 'ENOENT')) return [] as string[];
      throw err;
    });
    for (const name of names) {
      const seq = name.endsWith('.md') ? toSeq(name.slice(0, -3), date) : null;
      if (seq !== null && seq > highest) highest = seq;
    }
  }
  return highest;
}
