import { readdir, readFile, stat } from 'node:fs/promises';
import { formatTaskId, toIdDate, toSeq } from '../core/ids.js';
import { STATUSES } from '../core/status.js';
import { ensureDir, hasCode, writeAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import type { Paths } from './paths.js';

/**
 * Allocates the next `TASK-<date>-<seq>` id under the counter lock of that date. The counter is
 * seeded from the highest seq seen in the tree; an id found on disk is skipped, so a lost or stale
 * counter never hands out an id twice (the caller still creates the file exclusively).
 */
export async function allocateId(paths: Paths, now: Date): Promise<string> {
  const date = toIdDate(now);
  const file = paths.seqFile(date);
  await ensureDir(paths.seq);
  return withLock(`${file}.lock`, { what: `the id counter of ${date}`, waitMs: 10_000 }, async () => {
    let seq = await readCounter(file);
    if (seq === null) seq = await scanHighestSeq(paths, date);
    let id = formatTaskId(date, ++seq);
    while (await existsAnywhere(paths, id)) id = formatTaskId(date, ++seq);
    await writeAtomic(file, `${seq}\n`);
    return id;
  });
}

// --- internal ---

async function readCounter(file: string): Promise<number | null> {
  try {
    const value = Number.parseInt(await readFile(file, 'utf8'), 10);
    return Number.isSafeInteger(value) && value >= 0 ? value : null;
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    throw err;
  }
}

async function scanHighestSeq(paths: Paths, date: string): Promise<number> {
  let highest = 0;
  for (const status of STATUSES) {
    let names: string[];
    try {
      names = await readdir(paths.statusDir(status));
    } catch (err) {
      if (hasCode(err, 'ENOENT')) continue;
      throw err;
    }
    for (const name of names) {
      const seq = name.endsWith('.md') ? toSeq(name.slice(0, -3), date) : null;
      if (seq !== null && seq > highest) highest = seq;
    }
  }
  return highest;
}

async function existsAnywhere(paths: Paths, id: string): Promise<boolean> {
  for (const status of STATUSES) {
    try {
      await stat(paths.taskFile(status, id));
      return true;
    } catch (err) {
      if (!hasCode(err, 'ENOENT')) throw err;
    }
  }
  return false;
}
