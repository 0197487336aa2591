import { lstatSync } from 'node:fs';
import { lstat, mkdir, readdir } from 'node:fs/promises';
import { hasCode } from '../../core/errors.js';
import { formatTaskId, toIdDate, toSeq } from '../../core/ids.js';
import { STATUSES } from '../../core/status.js';
import { createEmptyExclusive, ensureDir } from '../../fs/atomic.js';
import { isNetworkDir } from '../../fs/network-fs.js';
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
    if (!(await reserve(dir, seq)) || (await isInBlock(dir, seq))) continue;
    const id = formatTaskId(date, seq);
    if ((await findTaskFiles(paths, id)).length === 0) return id;
  }
}

/**
 * The numbers of one block: a daemon reserves `ID_BLOCK` of them at once, aligned (`k*ID_BLOCK + 1`
 * to `(k+1)*ID_BLOCK`), by making the directory `tasks/.seq/<date>/<last>` exclusively.
 */
export const ID_BLOCK = 32;

/** Allocates ids as `allocateId` does, from a block of numbers reserved with one directory (`ID_BLOCK`). */
export type BlockAllocator = (paths: Paths, now: Date) => Promise<string>;

/**
 * The daemon's allocator (docs/architecture.md, "Commit protocol"): a block of numbers is reserved
 * by one `mkdir` of the directory named by the block's last number, and handed out in memory. Every
 * allocator sees it: its name is a number (the highest name is where a first allocation starts, in
 * any version), the exclusive create of that number fails on it, and a number inside it that an
 * allocator of one number at a time did create exclusively is given up by that allocator when it
 * finds the block's directory (`isInBlock`), while the daemon skips a number whose file is there
 * (one `lstat`, after its `mkdir`): of two that take a number, at least one sees the other.
 * Numbers left unused (a daemon stopped or killed mid-block) are a gap, never handed out. On a
 * network filesystem, where a look may be cached, it allocates one number at a time.
 */
export function createBlockAllocator(): BlockAllocator {
  const blocks = new Map<string, { next: number; last: number }>();
  const reserving = new Map<string, Promise<unknown>>(); // one block reserved at a time per directory
  return async (paths, now) => {
    const date = toIdDate(now);
    const dir = paths.seqDir(date);
    if (isNetworkDir(paths.tasks)) return allocateId(paths, now);
    for (;;) {
      const block = blocks.get(dir);
      if (!block || block.next > block.last) {
        let reserved = reserving.get(dir);
        if (!reserved) {
          reserved = firstFree(paths, dir, date)
            .then((free) => reserveBlock(dir, Math.max(block ? block.last + 1 : 0, free)))
            .then((next) => void blocks.set(dir, next))
            .finally(() => reserving.delete(dir));
          reserving.set(dir, reserved);
        }
        await reserved;
        continue;
      }
      const seq = block.next++;
      if (seq !== block.last && lstatSync(`${dir}/${seq}`, { throwIfNoEntry: false })) continue; // taken alone
      const id = formatTaskId(date, seq);
      if ((await findTaskFiles(paths, id)).length === 0) return id;
    }
  };
}

// --- internal ---

/** The first block at or past `from` whose directory this process made. */
async function reserveBlock(dir: string, from: number): Promise<{ next: number; last: number }> {
  for (let start = from; ; ) {
    const last = Math.ceil(start / ID_BLOCK) * ID_BLOCK;
    try {
      await mkdir(`${dir}/${last}`);
      return { next: start, last };
    } catch (err) {
      if (hasCode(err, 'ENOENT')) await ensureDir(dir);
      else if (hasCode(err, 'EEXIST')) start = last + 1;
      else throw err;
    }
  }
}

/** True when `seq`, just reserved alone, lies in a block a daemon reserved (the block's directory is there). */
async function isInBlock(dir: string, seq: number): Promise<boolean> {
  if (seq % ID_BLOCK === 0) return false; // its own file, which no block's directory can be
  const last = await lstat(`${dir}/${Math.ceil(seq / ID_BLOCK) * ID_BLOCK}`).catch(() => null);
  return last !== null && last.isDirectory();
}

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
