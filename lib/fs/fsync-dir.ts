import { closeSync, constants, fsync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { isNetworkDir } from './network-fs.js';

/**
 * fsyncs a directory, so renames and unlinks in it are on disk. Apart from `atomic.ts` so that the
 * readers of task files (`regular-file.ts`, and through it the lock owner's check) load no writer
 * library: the command line's light commands stay light.
 *
 * On a local disk the fsyncs of one directory are shared (group commit, docs/architecture.md
 * "Commit protocol"): a call made while an fsync of `dir` runs waits for the next one, which starts
 * once the running one ends and covers every change made in `dir` before it started; calls made
 * meanwhile share it. Each caller still returns only after an fsync that began after its call. On
 * a network filesystem each call makes its own fsync, as it always did.
 */
export function fsyncDir(dir: string): Promise<void> {
  if (isNetworkDir(dir)) return fsyncDirOnce(dir);
  const state = shared.get(dir) ?? { running: null, next: null };
  shared.set(dir, state);
  if (!state.running) return start(dir, state);
  state.next ??= state.running.then(noop, noop).then(() => {
    state.next = null;
    return start(dir, state);
  });
  return state.next;
}

/** fsyncs an open descriptor through the thread pool (one round trip, no FileHandle). */
export function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}

/** How many directory fsyncs this process made since it started (the bench's breakdown counts them). */
export function dirSyncCount(): number {
  return syncs;
}

// --- internal ---

interface Shared {
  /** The fsync running now. */
  running: Promise<void> | null;
  /** The fsync that starts when `running` ends, shared by every call made meanwhile. */
  next: Promise<void> | null;
}

const shared = new Map<string, Shared>();
let syncs = 0;

function start(dir: string, state: Shared): Promise<void> {
  const run = fsyncLocal(dir);
  state.running = run;
  const done = () => {
    if (state.running === run) state.running = null;
    if (!state.running && !state.next && shared.get(dir) === state) shared.delete(dir);
  };
  run.then(done, done);
  return run;
}

async function fsyncLocal(dir: string): Promise<void> {
  syncs++;
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

async function fsyncDirOnce(dir: string): Promise<void> {
  syncs++;
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function noop(): void {}
