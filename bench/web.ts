import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { DAEMON_NODE_FLAGS } from '../lib/daemon/service-file.js';
import { toPaths } from '../lib/store/disk/paths.js';
import { initTree } from '../lib/store/commit/store.js';
import { launchChromium } from './boards-apart.js';
import { feedCost, SAMPLE_US } from './feed-cost.js';
import { formatNumber, median, rssMb, type BenchOptions, type Row } from './measure.js';
import { latencyApart, latencySameCpus, openBoard, type Quantiles } from './web-latency.js';

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
  const browser = await launchChromium();
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
    // Interleaved rounds of each kind, so that all meet the same load; medians of each kind.
    const same = await latencySameCpus(browser, options, size);
    const apart = await latencyApart(options, size);
    const dispatches = options.quick ? 200 : 1000;
    const cost = await feedCost(options, size, dispatches);
    const n = size.toLocaleString('en');
    return [
      { section: 'web', metric: `board first render, ${n} tasks`, value: formatNumber(median(renders), 'ms'), note: `goto to ${active + 50} cards drawn (every active task and the latest 50 done), median of 3 (target <= 1 s)` },
      { section: 'web', metric: 'board page weight', value: formatNumber(weight / 1024, 'kB'), note: 'HTML, app.js and app.css as sent, uncompressed (target <= 200 kB)' },
      { section: 'web', metric: `board snapshot, ${n} tasks`, value: formatNumber(snapshot / 1024, 'kB'), note: 'the first event of the stream: every active card and the latest 50 done, uncompressed' },
      { section: 'web', metric: 'hand move shown on the board', value: `${formatNumber(median(shown), 'ms')} / ${formatNumber(Math.max(...shown), 'ms')}`, note: `p50 / max of ${shown.length} renames backlog -> ready, to the card in the ready column (target <= 200 ms)` },
      latencyRow('dispatch latency p99, 20 boards / none', same.boards, same.none, "the scheduler section's dispatch latency with 20 boards open and drawn on the same CPUs, and with none; medians of 3 interleaved rounds"),
      ...(apart ? [
        latencyRow("dispatch latency p99, 20 boards' streams / none", apart.kinds.streams, apart.kinds.none, `the daemon's own cost of 20 open boards: their event streams, every change read and parsed by a process on CPU ${apart.cpus.browser}, the daemon on CPU ${apart.cpus.daemon}; medians of 7 interleaved rounds`),
        latencyRow('dispatch latency p99, 20 boards on their own CPU / none', apart.kinds.boards, apart.kinds.none, `the same rounds with 20 boards drawn by a browser on CPU ${apart.cpus.browser}`),
        latencyRow('dispatch latency p99, no board, other CPU busy / none', apart.kinds.busy, apart.kinds.none, `the same rounds with CPU ${apart.cpus.browser} kept busy by 20 spinning processes and no board: what the machine, not the daemon, makes of a busy browser`),
      ] : []),
      ...(cost ? [{
        section: 'web',
        metric: "the board's code on the daemon's thread, 20 boards' streams",
        value: `${formatNumber(cost.boardMs, 'ms')} / ${dispatches.toLocaleString('en')} dispatches`,
        note: `read off a CPU profile (${SAMPLE_US} µs samples) of a round like the streams' above: ${(100 * cost.boardMs / cost.busyMs).toFixed(2)} % of the thread's busy time; longest unbroken stretch ${cost.longestMs.toFixed(2)} ms of ${cost.stretches}; at most ${cost.worstSpanMs.toFixed(2)} ms in any ${cost.latency.p99.toFixed(1)} ms (that round's p99)`,
      }] : []),
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

function latencyRow(metric: string, watched: Quantiles, alone: Quantiles, note: string): Row {
  return { section: 'web', metric, value: `${formatNumber(watched.p99, 'ms')} / ${formatNumber(alone.p99, 'ms')}`, note: `${note}; p50 ${watched.p50.toFixed(1)} / ${alone.p50.toFixed(1)} ms (target: p99 within 10 %)` };
}

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

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

