// The daemon's own cost of open boards read off a CPU profile (web.ts), where the latency rounds
// (web-latency.ts) cannot see it for this machine's noise: one round of the dispatch latency
// (scheduler.ts) with 20 boards' event streams open on the other CPU, the bench process, and so
// its daemon, profiled while the dispatches run. What its thread spent in the board's code
// (lib/web/ and all it called) in all, and in its longest unbroken stretch: a dispatch waits on
// the board at most for the stretches that fall inside it.
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { openStreamsApart } from './boards-apart.js';
import { cpuSplit, pinSelf } from './cpu-pin.js';
import type { BenchOptions } from './measure.js';
import { dispatchLatency, type Latency } from './dispatch-latency.js';
import { openBoard, untilLoaded } from './web-latency.js';

/** What the profile of one round shows, in ms of the daemon's thread. */
export interface FeedCost {
  latency: Latency;
  /** Time the thread was not idle. */
  busyMs: number;
  /** Time in the board's code and what it called. */
  boardMs: number;
  /** The longest stretch of board time, and how many there were. */
  longestMs: number;
  stretches: number;
  /** The most board time in any span as long as the round's p99: the most a dispatch that long waited on it. */
  worstSpanMs: number;
}

/** One profiled round of `count` dispatches with 20 streams; null where the CPUs cannot be split. */
export async function feedCost(options: BenchOptions, size: number, count: number): Promise<FeedCost | null> {
  const cpus = cpuSplit();
  if (!cpus) return null;
  pinSelf(cpus.daemon);
  const session = new Session();
  session.connect();
  let profile: Profile | undefined;
  try {
    const around = async (root: string) => {
      await untilLoaded(root);
      const close = await openStreamsApart(await openBoard(root), 20, cpus.browser);
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: SAMPLE_US });
      await session.post('Profiler.start');
      return async () => {
        profile = (await session.post('Profiler.stop')).profile as Profile;
        await close();
      };
    };
    const latency = await dispatchLatency(
      join(options.tmp, 'feed-cost'),
      { count, tree: size, complete: false, around },
      (text) => options.log(`web: profiled, 20 boards' streams, ${text.replace(/^scheduler: /, '')}`),
    );
    const cost = { latency, ...readProfile(profile!, latency.p99) };
    options.log(
      `web: board code ${cost.boardMs.toFixed(1)} ms of ${cost.busyMs.toFixed(0)} ms busy, longest stretch ${cost.longestMs.toFixed(2)} ms of ${cost.stretches}, at most ${cost.worstSpanMs.toFixed(2)} ms in ${latency.p99.toFixed(1)} ms`,
    );
    return cost;
  } finally {
    session.disconnect();
    pinSelf(cpus.all);
  }
}

/** The profiler's sampling interval (µs). */
export const SAMPLE_US = 100;

// --- internal ---

interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** Frames with no JS on the stack: they neither end nor begin a stretch of board time. */
const NATIVE = new Set(['(program)', '(garbage collector)']);

/**
 * Sums the samples whose stack holds a frame of lib/web/; a stretch runs from one such sample to the
 * last before idle time or other code, the native samples in between counted in (an upper bound).
 * The worst span is the most board time among the samples of any `spanMs`.
 */
function readProfile(profile: Profile, spanMs: number): Omit<FeedCost, 'latency'> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inBoard = new Map<number, boolean>();
  const isBoard = (id: number): boolean => {
    let known = inBoard.get(id);
    if (known === undefined) {
      const up = parent.get(id);
      known = byId.get(id)!.callFrame.url.includes('/lib/web/') || (up !== undefined && isBoard(up));
      inBoard.set(id, known);
    }
    return known;
  };
  let busyMs = 0,
    boardMs = 0,
    longestMs = 0,
    stretches = 0,
    stretch = 0,
    at = 0;
  const board: Array<{ at: number; ms: number }> = [];
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i]! / 1000;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const name = byId.get(id)!.callFrame.functionName;
    if (name !== '(idle)') busyMs += ms;
    if (isBoard(id)) {
      if (stretch === 0) stretches++;
      boardMs += ms;
      stretch += ms;
      board.push({ at, ms });
    } else if (stretch > 0 && NATIVE.has(name)) stretch += ms;
    else stretch = 0;
    longestMs = Math.max(longestMs, stretch);
  });
  if (boardMs === 0) throw new Error('feed cost: no sample in lib/web/ (the profile names the files otherwise?)');
  let worstSpanMs = 0,
    inSpan = 0,
    first = 0;
  for (const sample of board) {
    inSpan += sample.ms;
    while (board[first]!.at < sample.at - spanMs) inSpan -= board[first++]!.ms;
    worstSpanMs = Math.max(worstSpanMs, inSpan);
  }
  return { busyMs, boardMs, longestMs, stretches, worstSpanMs };
}
