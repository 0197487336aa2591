import { linkSync, lstatSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { hasCode } from '../../core/errors.js';
import { createExclusive } from '../../fs/atomic.js';
import { fsyncDir } from '../../fs/fsync-dir.js';
import { unlinkQuietly, writeTempDurable } from '../../fs/local-write.js';
import { isNetworkDir } from '../../fs/network-fs.js';
import { replaceFileDurable } from '../../fs/replace-file.js';
import { toWriteError } from '../../fs/write-error.js';

/** A fault-injection hook (tests only): `point` names a step, `detail` the change's cause. */
export type Fault = (point: string, detail?: string) => void;

/** One file of a batch: its final path and content, and for crash tests the change's fault hook and cause. */
export interface BatchWrite {
  path: string;
  content: string;
  /** Create `path` only if nothing is there (a hard link of the temporary): false when the name is taken. */
  exclusive?: boolean;
  fault?: Fault;
  cause?: string;
}

/**
 * Writes a file durably together with the other writes queued in the same event-loop turn (group
 * commit, docs/architecture.md "Commit protocol"): every temporary file is written and fsynced at
 * once (the fsyncs overlap in the thread pool), then each is renamed over its path (or, `exclusive`,
 * hard-linked to it and removed), then each directory written to is fsynced once for the batch.
 * Resolves only then, so a write is never answered before it is on disk: true when written, false
 * when an exclusive path was taken. A batch does not wait for the one before it: their fsyncs of
 * one directory are shared (`fsyncDir`). On a network filesystem each write is made on its own
 * (`replaceFileDurable`, `createExclusive`), as before.
 */
export function writeBatched(write: BatchWrite): Promise<boolean> {
  if (isNetworkDir(dirname(write.path))) {
    return write.exclusive
      ? createExclusive(write.path, write.content)
      : replaceFileDurable(write.path, write.content).then(() => true);
  }
  return new Promise<boolean>((resolve, reject) => {
    queued.push({ ...write, temp: '', resolve, reject });
    if (queued.length === 1) setImmediate(flush);
  });
}

// --- internal ---

/** A promise's resolver. */
type Resolve<T> = (value: T) => void;

interface Entry extends BatchWrite {
  temp: string;
  resolve: Resolve<boolean>;
  reject: (err: unknown) => void;
  taken?: boolean;
}

let queued: Entry[] = [];

function flush(): void {
  const batch = queued;
  queued = [];
  void runBatch(batch).catch((err: unknown) => batch.forEach((entry) => entry.reject(err)));
}

/**
 * The steps of one batch. The fault points (crash tests) mark where a crash may stop it:
 * `batch.temp-written` after a temporary while others are not yet written, `batch.temps-written`
 * when all are and none is renamed, `batch.renamed` after a rename (or link) while others are not
 * yet renamed, `batch.synced` once the directories are fsynced and before any write is answered.
 */
async function runBatch(batch: Entry[]): Promise<void> {
  let left = batch.length;
  const written = await Promise.all(
    batch.map(async (entry) => {
      const ok = await writeTemp(entry, batch.length === 1 ? 'alone' : 'batched');
      if (--left > 0 && ok) entry.fault?.('batch.temp-written', entry.cause);
      return ok ? entry : null;
    }),
  );
  const live = written.filter((entry): entry is Entry => entry !== null);
  faultAll(live, 'batch.temps-written');
  const dirs = new Set<string>();
  const placed = live.filter((entry, i) => {
    if (!place(entry)) return false;
    dirs.add(dirname(entry.path));
    if (i < live.length - 1) entry.fault?.('batch.renamed', entry.cause);
    return true;
  });
  const failed = new Map<string, unknown>();
  await Promise.all([...dirs].map((dir) => fsyncDir(dir).catch((err: unknown) => failed.set(dir, err))));
  faultAll(placed, 'batch.synced');
  for (const entry of placed) {
    const err = failed.get(dirname(entry.path));
    if (err === undefined) entry.resolve(entry.taken !== true);
    else entry.reject(toWriteError(err, entry.path));
  }
}

/**
 * Writes and fsyncs the entry's temporary beside its path (a new inode, never through a symlink);
 * false, the entry rejected, on failure. A write `alone` in its batch opens and writes on the event
 * loop (each call costs less than a thread-pool round trip there); the temporaries of a larger
 * batch are opened and written in the thread pool, all at once, so that a slow inode create (0.7 ms
 * on some virtual disks) holds neither the others nor the event loop.
 */
async function writeTemp(entry: Entry, company: 'alone' | 'batched'): Promise<boolean> {
  const suffix = `${process.pid}.${Math.random().toString(36).slice(2, 10)}.${entry.exclusive ? 'new' : 'tmp'}`;
  entry.temp = `${entry.path}.${suffix}`;
  try {
    // A replaced regular file keeps its mode; a new one gets 0o666 (less the umask).
    const existing = entry.exclusive ? undefined : lstatSync(entry.path, { bigint: true, throwIfNoEntry: false });
    const mode = existing?.isFile() ? Number(existing.mode) & 0o7777 : 0o666;
    await writeTempDurable(entry.temp, entry.content, {
      target: entry.path,
      local: company === 'alone',
      mode,
    });
    return true;
  } catch (err) {
    entry.reject(err);
    return false;
  }
}

/** Renames (or links, then removes) the entry's temporary to its path; false, the entry rejected, on failure. */
function place(entry: Entry): boolean {
  try {
    if (!entry.exclusive) renameSync(entry.temp, entry.path);
    else {
      try {
        linkSync(entry.temp, entry.path);
      } catch (err) {
        if (!hasCode(err, 'EEXIST')) throw err;
        entry.taken = true;
      }
      unlinkQuietly(entry.temp);
    }
    return true;
  } catch (err) {
    unlinkQuietly(entry.temp);
    entry.reject(toWriteError(err, entry.path));
    return false;
  }
}

/** Calls each distinct fault hook of the entries once (a point of the whole batch has no cause). */
function faultAll(entries: readonly Entry[], point: string): void {
  for (const fault of new Set(entries.map((entry) => entry.fault))) fault?.(point);
}
