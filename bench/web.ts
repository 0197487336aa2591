import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { requestDaemon } from '../lib/daemon/client.js';
import { DAEMON_NODE_FLAGS } from '../lib/daemon/service.js';
import { toPaths } from '../lib/store/paths.js';
import { initTree } from '../lib/store/store.js';
import { formatNumber, median, until, type BenchOptions, type Row } from './measure.js';
import { drawBoards, openBoardsApart } from './boards-apart.js';
import { cpuSplit, pinSelf } from './cpu-pin.js';
import { dispatchLatency, type Latency } from './scheduler.js';

/**
 * The web board section: the built daemon on 10,000 tasks (9,000 done, 500 ready, 500 backlog);
 * first render of the board in headless Chromium (navigation to every snapshot card drawn, median of
 * 3 fresh pages), the page's weight, and the daemon's RSS growth with 20 boards open while 200
 * tasks move by hand.
 */
export async function benchWeb(options: BenchOptions): Promise<Row[]> {
  const root = join(options.tmp, 'web');
  const size = options.quick ? 2000 : 10_000;
  await writeTree(root, size);
  const daemon = spawn(process.execPath, [...DAEMON_NODE_FLAGS, bin, 'daemon', 'run'], { env: { ...process.env, SVC_HOME: root, DEBUG: '' }, stdio: 'ignore' });
  const browser = await chromium.launch({ executablePath: process.env.SVC_CHROMIUM ?? '/usr/bin/chromium', args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  try {
    const url = await openBoard(root);
    const active = size / 10;
    const renders: number[] = [];
    let weight = 0;
    for (let run = 0; run < 3; run++) {
      const page = await (await browser.newContext()).newPage();
      let bytes = 0;
      page.on('response', (res) => void res.body().then((body) => void (bytes += body.length), () => undefined));
      const started = performance.now();
      await page.goto(url);
      await page.waitForFunction((count) => document.querySelectorAll('[data-card]').length >= count, active + 50, { timeout: 60_000 });
      renders.push(performance.now() - started);
      weight = Math.max(weight, bytes);
      await page.context().close();
      options.log(`web: first render ${renders.at(-1)!.toFixed(0)} ms`);
    }
    const snapshot = await snapshotBytes(url);
    const shown = await moveLatency(browser, root, url, size);
    options.log(`web: hand move to card moved: p50 ${median(shown).toFixed(0)} ms, max ${Math.max(...shown).toFixed(0)} ms`);
    const growth = await rssWithBoards(browser, root, url, daemon.pid!, size, options.log);
    // Interleaved rounds, none then 20 boards, so both meet the same load; medians of each.
    const { alone, watched } = await latencyRounds((at) => openBoards(browser, at, 20, size / 20 + 50), options, size, 'latency', '');
    const apart = await latencyApart(options, size);
    const n = size.toLocaleString('en');
    return [
      { section: 'web', metric: `board first render, ${n} tasks`, value: formatNumber(median(renders), 'ms'), note: `goto to ${active + 50} cards drawn (every active task and the latest 50 done), median of 3 (target <= 1 s)` },
      { section: 'web', metric: 'board page weight', value: formatNumber(weight / 1024, 'kB'), note: 'HTML, app.js and app.css as sent, uncompressed (target <= 200 kB)' },
      { section: 'web', metric: `board snapshot, ${n} tasks`, value: formatNumber(snapshot / 1024, 'kB'), note: 'the first event of the stream: every active card and the latest 50 done, uncompressed' },
      { section: 'web', metric: 'hand move shown on the board', value: `${formatNumber(median(shown), 'ms')} / ${formatNumber(Math.max(...shown), 'ms')}`, note: `p50 / max of ${shown.length} renames backlog -> ready, to the card in the ready column (target <= 200 ms)` },
      { section: 'web', metric: 'dispatch latency p99, 20 boards / none', value: `${formatNumber(watched.p99, 'ms')} / ${formatNumber(alone.p99, 'ms')}`, note: `the scheduler section's dispatch latency (p50 ${watched.p50.toFixed(1)} / ${alone.p50.toFixed(1)} ms) with 20 boards open and drawn, and with none; medians of 3 interleaved rounds (target: within 10 %)` },
      ...(apart ? [{ section: 'web', metric: 'dispatch latency p99, 20 boards on their own CPU / none', value: `${formatNumber(apart.watched.p99, 'ms')} / ${formatNumber(apart.alone.p99, 'ms')}`, note: `the same rounds with the browser on CPU ${apart.cpus.browser} and the daemon on CPU ${apart.cpus.daemon} in both (p50 ${apart.watched.p50.toFixed(1)} / ${apart.alone.p50.toFixed(1)} ms): the daemon's own cost of open boards (target: within 10 %)` }] : []),
      { section: 'web', metric: 'daemon RSS growth, 20 open boards', value: formatNumber(growth, 'MB'), note: '20 pages on the board while 200 tasks move by hand, each page seeing every move (target <= 20 MB)' },
    ];
  } finally {
    await browser.close();
    daemon.kill('SIGTERM');
    await new Promise((resolve) => daemon.once('exit', resolve));
    rmSync(root, { recursive: true, force: true });
  }
}

// --- internal ---

/**
 * Dispatch latency with no board and with 20 boards, in 3 interleaved rounds, the browser pinned to
 * one CPU and this process (its daemon) to the others in both; null where the CPUs cannot be split.
 */
async function latencyApart(options: BenchOptions, size: number): Promise<{ alone: Quantiles; watched: Quantiles; cpus: { browser: string; daemon: string } } | null> {
  const cpus = cpuSplit();
  if (!cpus) return null;
  pinSelf(cpus.daemon);
  try {
    const open = async (at: string) => openBoardsApart(await openBoard(at), 20, size / 20 + 50, cpus.browser).then(settled);
    return { ...(await latencyRounds(open, options, size, 'apart', `browser on CPU ${cpus.browser}, `)), cpus };
  } finally {
    pinSelf(cpus.all);
  }
}

/** Dispatch latency in 3 interleaved rounds of no board, then 20 boards opened by `open`; medians of each kind. */
async function latencyRounds(open: (root: string) => Promise<() => Promise<void>>, options: BenchOptions, size: number, dir: string, label: string): Promise<{ alone: Quantiles; watched: Quantiles }> {
  const runs: Record<'alone' | 'watched', Latency[]> = { alone: [], watched: [] };
  for (let round = 0; round < 3; round++) {
    for (const mode of ['alone', 'watched'] as const) {
      // Both kinds start alike: every task read by the daemon, then the same settling time (a round
      // that began while the 9,500 done tasks were still read in the background measured that read).
      const around = async (at: string) => {
        await untilLoaded(at);
        return mode === 'watched' ? open(at) : settle();
      };
      runs[mode].push(await dispatchLatency(join(options.tmp, `${dir}-${mode}-${round}`), { count: options.quick ? 200 : 1000, tree: size, complete: false, around }, options.log));
      options.log(`web: dispatch latency, ${label}${mode === 'alone' ? 'no board' : '20 boards'}, round ${round + 1}, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
    }
  }
  const of = (mode: 'alone' | 'watched'): Quantiles => ({ p50: median(runs[mode].map((run) => run.p50)), p99: median(runs[mode].map((run) => run.p99)) });
  return { alone: of('alone'), watched: of('watched') };
}

type Quantiles = { p50: number; p99: number };

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
/** How long 20 boards get to finish their first layout and paint before the dispatches start. */
const SETTLE_MS = 5000;

/** Waits until the daemon of `root` has read every task, done ones included (`/status`). */
function untilLoaded(root: string): Promise<void> {
  return until(async () => ((await requestDaemon(toPaths(root).socket, 'GET', '/status')).body as { tasks?: { loaded?: boolean } }).tasks?.loaded === true, 120_000);
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

async function openBoard(root: string): Promise<string> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const reply = await requestDaemon(toPaths(root).socket, 'POST', '/v1/web', {}).catch(() => null);
    if (reply?.status === 200) return (reply.body as { url: string }).url;
  }
  throw new Error('the daemon did not open the web board within 60 s');
}

async function rssWithBoards(browser: Browser, root: string, url: string, pid: number, size: number, log: (text: string) => void): Promise<number> {
  const before = rssMb(pid);
  const pages = await Promise.all(Array.from({ length: 20 }, async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(120_000); // 20 pages at once on a loaded machine
    await page.goto(url);
    await page.waitForSelector('[data-live="on"]');
    return page;
  }));
  const paths = toPaths(root);
  const moves = Math.min(200, size / 20 - 21); // the last 20 backlog tasks are the hand-move step's
  for (let i = 1; i <= moves; i++) {
    const id = idOf(i * 20 + 1); // backlog tasks
    renameSync(paths.taskFile('backlog', id), paths.taskFile('ready', id));
    if (i % 20 === 0) await new Promise((r) => setTimeout(r, 100));
  }
  await Promise.all(pages.map((page) => page.waitForFunction((count) => document.querySelectorAll('[data-column="ready"] [data-card]').length >= count, size / 20 + 20 + moves, { timeout: 120_000 })));
  const after = rssMb(pid);
  log(`web: RSS ${before.toFixed(0)} MB before 20 boards, ${after.toFixed(0)} MB after`);
  await Promise.all(pages.map((page) => page.context().close()));
  return after - before;
}

/**
 * Opens `count` boards on the daemon of `root` (each its own browser context), each until it drew the
 * `cards` of its snapshot, then lets their first paint settle (the figure is of open boards, not of
 * boards loading); returns their closing.
 */
async function openBoards(browser: Browser, root: string, count: number, cards: number): Promise<() => Promise<void>> {
  const pages = await drawBoards(browser, await openBoard(root), count, cards);
  return settled(async () => void (await Promise.all(pages.map((page) => page.context().close()))));
}

/** Renames 20 backlog tasks into ready/ one at a time and times each until its card is in the ready column. */
async function moveLatency(browser: Browser, root: string, url: string, size: number): Promise<number[]> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await page.waitForSelector('[data-live="on"]');
  const paths = toPaths(root);
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const id = idOf(size - 19 - i * 20); // backlog tasks the RSS step does not move
    const started = performance.now();
    renameSync(paths.taskFile('backlog', id), paths.taskFile('ready', id));
    await page.waitForSelector(`[data-column="ready"] [data-card="${id}"]`, { timeout: 30_000 });
    times.push(performance.now() - started);
  }
  await page.context().close();
  return times;
}

/** The size of the first event of the board's stream (the snapshot), read as the page reads it. */
function snapshotBytes(url: string): Promise<number> {
  const { port, searchParams } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/board/stream', headers: { cookie: `svc_web_${port}=${searchParams.get('token')}` } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const end = text.indexOf('\n\n', text.indexOf('event: snapshot'));
        if (text.includes('event: snapshot') && end > 0) (req.destroy(), resolve(Buffer.byteLength(text.slice(0, end))));
      });
    });
    req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
    req.end();
  });
}

async function writeTree(root: string, size: number): Promise<void> {
  mkdirSync(root, { recursive: true });
  const paths = toPaths(root);
  await initTree(paths);
  for (let i = 1; i <= size; i++) {
    const status = i % 20 === 0 ? 'ready' : i % 20 === 1 ? 'backlog' : 'done';
    const id = idOf(i);
    const stamp = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    writeFileSync(paths.taskFile(status, id), `---\nschemaVersion: 1\nid: ${id}\nproject: bench\ntitle: Bench task ${i}\nstatus: ${status}\npriority: normal\nrouting:\n  agent: dev\ncreatedAt: '${stamp}'\nupdatedAt: '${stamp}'\nlastTransitionAt: '${stamp}'\ncreatedBy: bench\ndependsOn: []\nmetadata: {}\n---\n\nA task body.\n`);
  }
}

function idOf(i: number): string {
  return `TASK-2026-01-01-${String(i).padStart(6, '0')}`;
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}
