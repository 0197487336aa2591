import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh temp root for one test (short, so socket paths fit). */
export function tempRoot(prefix = 'svc-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every temp root made so far. */
export function cleanRoots(): void {
  while (made.length) removeSoon(made.pop()!);
}

/**
 * A bound never shorter than this: it only turns a hang into a failure, and on a busy machine
 * (a shared CI runner, CPU hogs beside the suite) a short one fails tests that are merely slow.
 */
const MIN_BOUND_MS = 15_000;

/** Waits until `fn` returns a truthy value (or stops throwing), for at most `ms` (at least 15 s). */
export async function within<T>(ms: number, fn: () => T | Promise<T>, what = 'condition'): Promise<T> {
  ms = Math.max(ms, MIN_BOUND_MS);
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Waits until the log file `file` has a line matching `pattern`: a daemon's log is a stream,
 * written a moment after the event it records, so a read right after the event may miss it.
 */
export async function logShows(file: string, pattern: RegExp, what = String(pattern)): Promise<void> {
  await within(
    10_000,
    () => {
      try {
        return pattern.test(readFileSync(file, 'utf8'));
      } catch {
        return false;
      }
    },
    `${what} in ${file}`,
  );
}

/**
 * Waits until `count()` reaches `target`, failing only when it made no progress for `stallMs`: a
 * slow machine (a busy CI runner) takes longer, a stuck one fails. Returns the final count.
 */
export async function untilCount(
  target: number,
  count: () => number | Promise<number>,
  stallMs: number,
  what: string,
): Promise<number> {
  let last = -1;
  let since = Date.now();
  for (;;) {
    const now = await count();
    if (now >= target) return now;
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since > stallMs) {
      throw new Error(`no progress for ${stallMs} ms waiting for ${what}: ${now} of ${target}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A clock tests can move. */
export function fixedClock(iso = '2026-11-21T10:00:00.000Z') {
  let now = new Date(iso);
  const clock = () => new Date(now);
  clock.set = (next: string) => {
    now = new Date(next);
  };
  clock.advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  return clock;
}

/** Removes a directory that agent processes of a stopped daemon may still be writing into for a moment. */
function removeSoon(dir: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      return rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || attempt === 50) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}
