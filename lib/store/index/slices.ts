import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/**
 * How long bulk index work (the background load, a listing of 100,000 names, a stat sweep) may hold
 * the event loop before it yields. Each I/O step of a dispatch or a tool call runs between two slices,
 * so this bounds what the bulk work adds to each step; when nothing else waits, the next slice runs at once.
 */
const SLICE_MS = 1;
/** While `wait` says foreground work is under way, a slice still runs this often (the bulk work always progresses). */
const WAITING_SLICE_EVERY_MS = 10;

/**
 * Runs `fn` over `items` in slices of about `SLICE_MS`, yielding to the event loop between slices;
 * `fn` returning false stops. While `wait()` is true, slices pause (at most `WAITING_SLICE_EVERY_MS`).
 */
export async function inSlices<T>(
  items: readonly T[],
  fn: (item: T) => void | boolean,
  wait?: () => boolean,
): Promise<void> {
  let i = 0;
  let last = performance.now();
  while (i < items.length) {
    if (i > 0) await nextTurn();
    while (wait?.() && performance.now() - last < WAITING_SLICE_EVERY_MS) await sleep(1);
    const until = performance.now() + SLICE_MS;
    do if (fn(items[i]!) === false) return;
    while (++i < items.length && performance.now() < until);
    last = performance.now();
  }
}
