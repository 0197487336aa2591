// The web section's dispatch latency with open boards (web.ts): the scheduler section's dispatch
// latency (scheduler.ts) on a daemon with no board, with 20 boards, and with only the 20 boards'
// event streams, in interleaved rounds; medians of each kind's rounds.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { requestDaemon } from '../lib/daemon/instance/client.js';
import { toPaths } from '../lib/store/disk/paths.js';
import { drawBoards, openBoardsApart, openStreamsApart } from './boards-apart.js';
import { cpuSplit, pinSelf } from './cpu-pin.js';
import { median, until, type BenchOptions } from './measure.js';
import { dispatchLatency, type Latency } from './dispatch-latency.js';

export type Quantiles = { p50: number; p99: number };
/**
 * No board; 20 boards drawn in a browser; 20 boards' event streams read without drawing; no board
 * while 20 spinning processes keep the browser's CPU as busy as 20 boards do (the machine's share).
 */
export type Kind = 'none' | 'boards' | 'streams' | 'busy';
type Opener = (root: string) => Promise<() => Promise<void>>;

/** Rounds on the same CPUs as the daemon: no board, then 20 boards drawn in `browser`. */
export function latencySameCpus(
  browser: Browser,
  options: BenchOptions,
  size: number,
): Promise<Record<'none' | 'boards', Quantiles>> {
  const boards: Opener = async (root) => {
    const pages = await drawBoards(browser, await openBoard(root), 20, size / 20 + 50);
    return settled(async () => void (await Promise.all(pages.map((page) => page.context().close()))));
  };
  return latencyRounds({ none: settle, boards }, 3, options, size, 'same', '');
}

/**
 * Rounds with the boards' process (`boards-apart.ts`) on the last CPU and this process (its daemon)
 * on the others: no board, 20 boards' streams only, that CPU kept busy, 20 boards drawn; null where
 * the CPUs cannot be split.
 */
export async function latencyApart(
  options: BenchOptions,
  size: number,
): Promise<{ kinds: Record<Kind, Quantiles>; cpus: { browser: string; daemon: string } } | null> {
  const cpus = cpuSplit();
  if (!cpus) return null;
  pinSelf(cpus.daemon);
  try {
    const boards: Opener = async (root) =>
      settled(await openBoardsApart(await openBoard(root), 20, size / 20 + 50, cpus.browser));
    const streams: Opener = async (root) => settled(await openStreamsApart(await openBoard(root), 20, cpus.browser));
    const busy: Opener = async () => settled(spin(20, cpus.browser));
    return {
      kinds: await latencyRounds(
        { none: settle, streams, busy, boards },
        7,
        options,
        size,
        'apart',
        `browser on CPU ${cpus.browser}, `,
      ),
      cpus,
    };
  } finally {
    pinSelf(cpus.all);
  }
}

/** Asks the daemon of `root` to serve its board (`svc web`) and returns the board's URL with its token. */
export async function openBoard(root: string): Promise<string> {
  let url = '';
  await until(async () => {
    const reply = await requestDaemon(toPaths(root).socket, { method: 'POST', path: '/v1/web', body: {} }).catch(
      () => null,
    );
    if (reply?.status === 200) url = (reply.body as { url: string }).url;
    return url !== '';
  }, 60_000);
  return url;
}

// --- internal ---

/** How long open boards get to finish their first layout and paint before the dispatches start. */
const SETTLE_MS = 5000;
const LABEL: Record<Kind, string> = {
  none: 'no board',
  boards: '20 boards',
  streams: "20 boards' streams",
  busy: 'no board, the other CPU busy',
};

/** `rounds` rounds of each kind in turn, so that every kind meets the machine's same moods. */
async function latencyRounds<K extends Kind>(
  openers: Record<K, Opener>,
  rounds: number,
  options: BenchOptions,
  size: number,
  dir: string,
  label: string,
): Promise<Record<K, Quantiles>> {
  const runs = {} as Record<K, Latency[]>;
  for (let round = 0; round < rounds; round++) {
    for (const [kind, open] of Object.entries(openers) as Array<[K, Opener]>) {
      // Every kind starts alike: every task read by the daemon, then the same settling time (a round
      // that began while the 9,500 done tasks were still read in the background measured that read).
      const around = async (root: string) => {
        await untilLoaded(root);
        return open(root);
      };
      // the round's figures on one line with its kind (the scheduler section's line names none)
      const log = (text: string) =>
        options.log(
          `web: ${label}${LABEL[kind]}, round ${round + 1}, ${text.replace(/^scheduler: /, '')}, load average ${loadavg()
            .map((n) => n.toFixed(1))
            .join(' ')}`,
        );
      (runs[kind] ??= []).push(
        await dispatchLatency(
          join(options.tmp, `${dir}-${kind}-${round}`),
          { count: options.quick ? 200 : 1000, tree: size, complete: false, around },
          log,
        ),
      );
    }
  }
  return Object.fromEntries(
    (Object.entries(runs) as Array<[K, Latency[]]>).map(([kind, latencies]) => [
      kind,
      { p50: median(latencies.map((run) => run.p50)), p99: median(latencies.map((run) => run.p99)) },
    ]),
  ) as Record<K, Quantiles>;
}

/** Starts `count` processes that spin on `cpus` until the returned closing stops them. */
function spin(count: number, cpus: string): () => Promise<void> {
  const children = Array.from({ length: count }, () =>
    spawn('taskset', ['-c', cpus, process.execPath, '-e', 'for (;;);'], { stdio: 'ignore' }),
  );
  const exited = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  return async () => {
    for (const child of children) child.kill();
    await Promise.all(exited);
  };
}

/** Waits until the daemon of `root` has read every task, done ones included (`/status`). */
export function untilLoaded(root: string): Promise<void> {
  return until(
    async () =>
      (
        (await requestDaemon(toPaths(root).socket, { method: 'GET', path: '/status' })).body as {
          tasks?: { loaded?: boolean };
        }
      ).tasks?.loaded === true,
    120_000,
  );
}

/** The settling time the boards get, for a round with none; returns nothing to close. */
function settle(): Promise<() => Promise<void>> {
  return settled(async () => undefined);
}

/** Waits `SETTLE_MS` (open boards finish their first layout and paint), then hands `close` on. */
async function settled(close: () => Promise<void>): Promise<() => Promise<void>> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return close;
}
