import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { hasCode } from '../core/errors.js';
import type { Clock } from '../core/time/clock.js';
import { ensureDir, fsyncDir, writeDurable } from '../fs/atomic.js';
import type { Offered } from './compose.js';

/** What a coalescer needs: its folder, the clock, what to do with a window's gathered events, where to log. */
export interface CoalescerOptions {
  dir: string;
  clock: Clock;
  /** Writes the one notification of a window's gathered events to the outbox (durably, before it resolves). */
  flush: (subscription: string, gathered: Offered[]) => Promise<void>;
  log: (line: string) => void;
}

/**
 * Coalescing per subscription and event type: the first event of a window goes at once (`admit` answers `now`) and
 * opens a window of `coalesceMs`; each later event of the window is written at once to its own file
 * (`coalesce/<subscription>/<type>/<window end>/<n>-<event id>.json`), so a crash loses none; at the window's end they
 * become one notification, then the window's folder is renamed away and removed. A restart finds the folders left and
 * merges each at its end; a folder renamed away but not yet removed was merged already.
 */
export interface Coalescer {
  admit(offered: Offered, options: { subscription: string; coalesceMs: number }): 'now' | Promise<void>;
  /** Finds the windows a previous run left and merges each at its end. */
  restore(): Promise<void>;
  /** Stops merging; a merge already under way is finished first (the gathered files stay for the next start). */
  stop(): Promise<void>;
}

export function createCoalescer(options: CoalescerOptions): Coalescer {
  const windows = new Map<string, Window>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const merging = new Set<Promise<void>>();
  const schedule = (window: Window) => {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        const merge = close(window).finally(() => merging.delete(merge));
        merging.add(merge);
      },
      Math.max(0, window.endsAt - options.clock().getTime()),
    );
    timer.unref();
    timers.add(timer);
  };
  const close = async (window: Window) => {
    if (windows.get(window.key) === window) windows.delete(window.key);
    if (stopped) return;
    await Promise.allSettled(window.writes);
    try {
      await mergeWindow(window, options);
    } catch (err) {
      options.log(`notify: the events gathered in ${window.dir} are not merged yet (${String(err)}); trying again`);
      schedule({ ...window, endsAt: options.clock().getTime() + 5_000 });
    }
  };
  return {
    admit(offered, { subscription, coalesceMs }) {
      if (coalesceMs <= 0) return 'now';
      const key = `${subscription}/${offered.event.type}`;
      const now = options.clock().getTime();
      const open = windows.get(key);
      if (!open || open.endsAt <= now) {
        const window: Window = newWindow(options.dir, { key, subscription, endsAt: now + coalesceMs });
        windows.set(key, window);
        schedule(window);
        return 'now';
      }
      const n = ++open.count;
      const file = join(open.dir, `${String(n).padStart(6, '0')}-${offered.event.id}.json`);
      const write = (async () => {
        await ensureDir(open.dir, 0o700);
        await writeDurable(file, JSON.stringify(offered));
      })();
      open.writes.add(write);
      return write;
    },
    async restore() {
      for (const window of await findWindows(options.dir)) {
        const current = windows.get(window.key);
        if (!current || current.endsAt < window.endsAt) windows.set(window.key, window);
        schedule(window);
      }
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...merging]);
    },
  };
}

// --- internal ---

interface Window {
  key: string;
  subscription: string;
  endsAt: number;
  dir: string;
  count: number;
  writes: Set<Promise<void>>;
}

function newWindow(root: string, w: { key: string; subscription: string; endsAt: number; count?: number }): Window {
  return { ...w, dir: join(root, w.key, String(w.endsAt)), count: w.count ?? 0, writes: new Set() };
}

async function mergeWindow(window: Window, options: CoalescerOptions): Promise<void> {
  const names = (await list(window.dir)).filter((name) => name.endsWith('.json')).sort();
  const gathered: Offered[] = [];
  for (const name of names) {
    try {
      gathered.push(JSON.parse(await readFile(join(window.dir, name), 'utf8')) as Offered);
    } catch {
      // a file cut short by a crash before its rename never existed under this name; anything else is skipped
    }
  }
  if (gathered.length) await options.flush(window.subscription, gathered);
  const done = join(window.dir, '..', `.done-${window.endsAt}`);
  try {
    await rename(window.dir, done);
  } catch (err) {
    if (!hasCode(err, 'ENOENT')) throw err;
    return;
  }
  await fsyncDir(join(window.dir, '..'));
  await rm(done, { recursive: true, force: true });
}

/** The windows left under `root` (`<subscription>/<type>/<end>/`); the ones renamed away are removed. */
async function findWindows(root: string): Promise<Window[]> {
  const found: Window[] = [];
  for (const subscription of await list(root)) {
    for (const type of await list(join(root, subscription))) {
      for (const end of await list(join(root, subscription, type))) {
        const parent = join(root, subscription, type);
        if (end.startsWith('.done-')) await rm(join(parent, end), { recursive: true, force: true });
        else if (/^\d+$/.test(end)) {
          const count = (await list(join(parent, end))).length;
          found.push(newWindow(root, { key: `${subscription}/${type}`, subscription, endsAt: Number(end), count }));
        }
      }
    }
  }
  return found;
}

async function list(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (hasCode(err, 'ENOENT') || hasCode(err, 'ENOTDIR')) return [];
    throw err;
  }
}
