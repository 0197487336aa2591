import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DAEMON_NODE_FLAGS } from '../lib/daemon/service-file.js';
import { launchChromium } from './boards-apart.js';
import { feedCost, SAMPLE_US } from './feed-cost.js';
import { formatNumber, median, type BenchOptions, type Row } from './measure.js';
import { moveLatency, rssWithBoards, snapshotBytes, writeTree } from './web-board.js';
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
  const daemon = spawn(process.execPath, [...DAEMON_NODE_FLAGS, bin, 'daemon', 'run'], {
    env: { ...process.env, SVC_HOME: root, DEBUG: '' },
    stdio: 'ignore',
  });
  const browser = await launchChromium();
  try {
    const url = await openBoard(root);
    const active = size / 10;
    const renders: number[] = [];
    let weight = 0;
    for (let run = 0; run < 3; run++) {
      const page = await (await browser.newContext()).newPage();
      let bytes = 0;
      page.on(
        'response',
        (res) =>
          void res.body().then(
            (body) => void (bytes += body.length),
            () => undefined,
          ),
      );
      const started = performance.now();
      await page.goto(url);
      await page.waitForFunction((count) => document.querySelectorAll('[data-card]').length >= count, active + 50, {
        timeout: 60_000,
      });
      renders.push(performance.now() - started);
      weight = Math.max(weight, bytes);
      await page.context().close();
      options.log(`web: first render ${renders.at(-1)!.toFixed(0)} ms`);
    }
    const snapshot = await snapshotBytes(url);
    const shown = await moveLatency(browser, root, url, size);
    options.log(
      `web: hand move to card moved: p50 ${median(shown).toFixed(0)} ms, max ${Math.max(...shown).toFixed(0)} ms`,
    );
    const growth = await rssWithBoards(browser, root, url, daemon.pid!, size, options.log);
    // Interleaved rounds of each kind, so that all meet the same load; medians of each kind.
    const same = await latencySameCpus(browser, options, size);
    const apart = await latencyApart(options, size);
    const dispatches = options.quick ? 200 : 1000;
    const cost = await feedCost(options, size, dispatches);
    const n = size.toLocaleString('en');
    return [
      {
        section: 'web',
        metric: `board first render, ${n} tasks`,
        value: formatNumber(median(renders), 'ms'),
        note: `goto to ${active + 50} cards drawn (every active task and the latest 50 done), median of 3 (target <= 1 s)`,
      },
      {
        section: 'web',
        metric: 'board page weight',
        value: formatNumber(weight / 1024, 'kB'),
        note: 'HTML, app.js and app.css as sent, uncompressed (target <= 200 kB)',
      },
      {
        section: 'web',
        metric: `board snapshot, ${n} tasks`,
        value: formatNumber(snapshot / 1024, 'kB'),
        note: 'the first event of the stream: every active card and the latest 50 done, uncompressed',
      },
      {
        section: 'web',
        metric: 'hand move shown on the board',
        value: `${formatNumber(median(shown), 'ms')} / ${formatNumber(Math.max(...shown), 'ms')}`,
        note: `p50 / max of ${shown.length} renames backlog -> ready, to the card in the ready column (target <= 200 ms)`,
      },
      latencyRow(
        'dispatch latency p99, 20 boards / none',
        same.boards,
        same.none,
        "the scheduler section's dispatch latency with 20 boards open and drawn on the same CPUs, and with none; medians of 3 interleaved rounds",
      ),
      ...(apart
        ? [
            latencyRow(
              "dispatch latency p99, 20 boards' streams / none",
              apart.kinds.streams,
              apart.kinds.none,
              `the daemon's own cost of 20 open boards: their event streams, every change read and parsed by a process on CPU ${apart.cpus.browser}, the daemon on CPU ${apart.cpus.daemon}; medians of 7 interleaved rounds`,
            ),
            latencyRow(
              'dispatch latency p99, 20 boards on their own CPU / none',
              apart.kinds.boards,
              apart.kinds.none,
              `the same rounds with 20 boards drawn by a browser on CPU ${apart.cpus.browser}`,
            ),
            latencyRow(
              'dispatch latency p99, no board, other CPU busy / none',
              apart.kinds.busy,
              apart.kinds.none,
              `the same rounds with CPU ${apart.cpus.browser} kept busy by 20 spinning processes and no board: what the machine, not the daemon, makes of a busy browser`,
            ),
          ]
        : []),
      ...(cost
        ? [
            {
              section: 'web',
              metric: "the board's code on the daemon's thread, 20 boards' streams",
              value: `${formatNumber(cost.boardMs, 'ms')} / ${dispatches.toLocaleString('en')} dispatches`,
              note: `read off a CPU profile (${SAMPLE_US} µs samples) of a round like the streams' above: ${((100 * cost.boardMs) / cost.busyMs).toFixed(2)} % of the thread's busy time; longest unbroken stretch ${cost.longestMs.toFixed(2)} ms of ${cost.stretches}; at most ${cost.worstSpanMs.toFixed(2)} ms in any ${cost.latency.p99.toFixed(1)} ms (that round's p99)`,
            },
          ]
        : []),
      {
        section: 'web',
        metric: 'daemon RSS growth, 20 open boards',
        value: formatNumber(growth, 'MB'),
        note: '20 pages on the board while 200 tasks move by hand, each page seeing every move (target <= 20 MB)',
      },
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
  return {
    section: 'web',
    metric,
    value: `${formatNumber(watched.p99, 'ms')} / ${formatNumber(alone.p99, 'ms')}`,
    note: `${note}; p50 ${watched.p50.toFixed(1)} / ${alone.p50.toFixed(1)} ms (target: p99 within 10 %)`,
  };
}

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
