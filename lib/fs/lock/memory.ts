import { SvcError } from '../../core/errors.js';

/** Options of a memory lock: what it guards (for the error) and how long to wait for it. */
export interface MemoryLockOptions {
  what: string;
  /** How long to wait behind the holder before failing with `locked`; default about 2 s, as a lock directory. */
  waitMs?: number;
}

/** Runs `fn` once every earlier holder of `key` in this process is done (a per-key promise queue). */
export type MemoryLocks = <T>(key: string, options: MemoryLockOptions, fn: () => Promise<T>) => Promise<T>;

/**
 * Per-key locks of one process: a change waits for the changes of the same key queued before it,
 * in order, and fails with `locked` after `waitMs` (leaving its place to the next). No system call.
 */
export function createMemoryLocks(): MemoryLocks {
  const tails = new Map<string, Promise<void>>();
  return async (key, options, fn) => {
    const before = tails.get(key);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before ? before.then(() => mine) : mine;
    tails.set(key, tail);
    try {
      if (before) await waitTurn(before, options);
      return await fn();
    } finally {
      done();
      // Forgotten once the whole queue up to here has run (not when this change gave up waiting).
      void tail.then(() => tails.get(key) === tail && tails.delete(key));
    }
  };
}

// --- internal ---

async function waitTurn(before: Promise<void>, { what, waitMs = 2000 }: MemoryLockOptions): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new SvcError('locked', `${what} is locked by another change of the daemon.`, {
            hint: 'Another change of it is being written right now; retry in a moment.',
          }),
        ),
      Math.max(0, waitMs),
    );
  });
  try {
    await Promise.race([before, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
