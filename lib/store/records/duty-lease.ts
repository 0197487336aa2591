import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { isGone } from '../../core/errors.js';
import { ensureDir, writeDurable } from '../../fs/atomic.js';
import { withLock } from '../../fs/lock/lock.js';
import { forgetCached, stalenessBoundMs } from '../../fs/network-fs.js';
import { isProcessAlive } from '../../fs/process.js';
import { readRegularFile } from '../../fs/regular-file.js';
import type { Paths } from '../disk/paths.js';

/** The daemon that holds a duty: host and pid, as in a task's lease. */
export interface DutyOwner {
  host: string;
  pid: number;
}

/**
 * A duty's file in the tree (`tasks/.duties/<duty>.json`): its owner, when it last renewed, and the state it hands
 * over.
 */
export interface DutyRecord {
  duty: string;
  owner: DutyOwner;
  renewedAt: string;
  state?: unknown;
}

/** What a claim found: whether `self` holds the duty now, and the record as it is after the claim. */
export interface DutyClaim {
  held: boolean;
  /** True when `self` did not hold it before this claim (the record's `state` is the last owner's). */
  tookOver: boolean;
  record: DutyRecord | null;
}

/** Who claims a duty (`self`), when, and how long an owner's last renewal holds it (`ttlMs`). */
export interface DutyClaimer {
  self: DutyOwner;
  now: Date;
  ttlMs: number;
}

/**
 * Claims or renews a team-wide duty for `self`, under the duty's lock: a daemon that holds it renews
 * it; one that does not takes it over only when the file is missing, its owner has not renewed it
 * for `ttlMs` (a stopped or killed daemon, or a host cut off), or its owner is a process of this
 * host that is gone (a restarted daemon goes on at once). The state the last owner saved stays
 * in the record for the new one. One owner at a time, whatever the number of daemons sharing the tree.
 */
export async function claimDuty(paths: Paths, duty: string, claimer: DutyClaimer): Promise<DutyClaim> {
  const { self, now } = claimer;
  return withDutyLock(paths, duty, async () => {
    const record = await confirmFree(paths, duty, claimer);
    const mine = record !== null && isOwner(record, self);
    if (!isFree(record, claimer)) return { held: false, tookOver: false, record };
    const next: DutyRecord = {
      duty,
      owner: self,
      renewedAt: now.toISOString(),
      ...(record?.state === undefined ? {} : { state: record.state }),
    };
    await writeDuty(paths, next);
    return { held: true, tookOver: !mine, record: next };
  });
}

/**
 * Saves the state of a duty `self` holds (for the next owner); false, and nothing written, when another daemon holds it
 * now.
 */
export async function saveDutyState(
  paths: Paths,
  duty: string,
  { self, now, state }: { self: DutyOwner; now: Date; state: unknown },
): Promise<boolean> {
  return withDutyLock(paths, duty, async () => {
    const record = await readDuty(paths, duty);
    if (record && !isOwner(record, self)) return false;
    await writeDuty(paths, { duty, owner: self, renewedAt: record?.renewedAt ?? now.toISOString(), state });
    return true;
  });
}

/** Gives a duty up (a daemon that stops), so another daemon takes it at its next claim instead of after `ttlMs`. */
export async function releaseDuty(paths: Paths, duty: string, self: DutyOwner): Promise<void> {
  await withDutyLock(paths, duty, async () => {
    const record = await readDuty(paths, duty);
    if (record && isOwner(record, self)) await writeDuty(paths, { ...record, renewedAt: new Date(0).toISOString() });
  });
}

/** The record of a duty, or null when no daemon ever held it (or its file does not parse). */
export async function readDuty(paths: Paths, duty: string): Promise<DutyRecord | null> {
  try {
    const data = JSON.parse(
      (await readRegularFile(paths.dutyFile(duty), 64 * 1024 * 1024)).text,
    ) as Partial<DutyRecord>;
    const owner = data.owner;
    if (
      typeof owner?.host !== 'string' ||
      typeof owner.pid !== 'number' ||
      typeof data.renewedAt !== 'string' ||
      Number.isNaN(Date.parse(data.renewedAt))
    )
      return null;
    return {
      duty,
      owner: { host: owner.host, pid: owner.pid },
      renewedAt: data.renewedAt,
      ...(data.state === undefined ? {} : { state: data.state }),
    };
  } catch (err) {
    if (isGone(err) || err instanceof SyntaxError) return null;
    throw err;
  }
}

// --- internal ---

/** True when `self` may write the duty's record: it holds it, or nobody holds it now. */
function isFree(record: DutyRecord | null, { self, now, ttlMs }: DutyClaimer): boolean {
  if (record === null || isOwner(record, self)) return true;
  return Date.parse(record.renewedAt) <= now.getTime() - ttlMs || isDeadHere(record.owner);
}

/**
 * The duty's record, read under its lock. On a network filesystem a record that says the duty is
 * free to take (missing, or not renewed for `ttlMs`) may be a cached look at a file another host
 * has just written: it is read again, past the cache (`forgetCached`, then the filesystem's
 * staleness bound), before anyone takes the duty on its word. Two owners at once would each count
 * half of a team's completions and hand over the other's state lost.
 */
async function confirmFree(paths: Paths, duty: string, claimer: DutyClaimer): Promise<DutyRecord | null> {
  const { self } = claimer;
  const record = await readDuty(paths, duty);
  const file = paths.dutyFile(duty);
  const boundMs = stalenessBoundMs(paths.tasks);
  if (boundMs === 0 || (record !== null && isOwner(record, self)) || !isFree(record, claimer)) return record;
  await forgetCached(file);
  await new Promise((resolve) => setTimeout(resolve, boundMs));
  return readDuty(paths, duty);
}

function isDeadHere(owner: DutyOwner): boolean {
  return owner.host === hostname() && !isProcessAlive(owner.pid);
}

function isOwner(record: DutyRecord, self: DutyOwner): boolean {
  return record.owner.host === self.host && record.owner.pid === self.pid;
}

/** The duty's lock; on a network filesystem a writer waits past a claim's second look (`confirmFree`). */
function withDutyLock<T>(paths: Paths, duty: string, fn: () => Promise<T>): Promise<T> {
  return withLock(
    paths.lockFile(`duty.${duty}`),
    { what: `duty ${duty}`, waitMs: 2000 + stalenessBoundMs(paths.tasks) },
    fn,
  );
}

async function writeDuty(paths: Paths, record: DutyRecord): Promise<void> {
  const file = paths.dutyFile(record.duty);
  await ensureDir(dirname(file));
  await writeDurable(file, `${JSON.stringify(record, null, 2)}\n`);
}
