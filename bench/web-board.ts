import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { Browser } from 'playwright-core';
import { toPaths } from '../lib/store/disk/paths.js';
import { initTree } from '../lib/store/commit/store.js';
import { rssMb } from './measure.js';

// The web section's figures of one board on one daemon (web.ts): its tree, its snapshot's size, a hand
// move's time to the card, and the daemon's RSS with 20 boards open.

/** Writes `size` task files into `root`: a twentieth ready, a twentieth backlog, the rest done. */
export async function writeTree(root: string, size: number): Promise<void> {
  mkdirSync(root, { recursive: true });
  const paths = toPaths(root);
  await initTree(paths);
  for (let i = 1; i <= size; i++) {
    const status = i % 20 === 0 ? 'ready' : i % 20 === 1 ? 'backlog' : 'done';
    const id = idOf(i);
    const stamp = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    writeFileSync(
      paths.taskFile(status, id),
      `---\nschemaVersion: 1\nid: ${id}\nproject: bench\ntitle: Bench task ${i}\nstatus: ${status}\npriority: normal\nrouting:\n  agent: dev\ncreatedAt: '${stamp}'\nupdatedAt: '${stamp}'\nlastTransitionAt: '${stamp}'\ncreatedBy: bench\ndependsOn: []\nmetadata: {}\n---\n\nA task body.\n`,
    );
  }
}
/** The size of the first event of the board's stream (the snapshot), read as the page reads it. */
export function snapshotBytes(url: string): Promise<number> {
  const { port, searchParams } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/board/stream',
        headers: { cookie: `svc_web_${port}=${searchParams.get('token')}` },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const end = text.indexOf('\n\n', text.indexOf('event: snapshot'));
          if (text.includes('event: snapshot') && end > 0) {
            req.destroy();
            resolve(Buffer.byteLength(text.slice(0, end)));
          }
        });
      },
    );
    req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
    req.end();
  });
}

/** Renames 20 backlog tasks into ready/ one at a time and times each until its card is in the ready column. */
export async function moveLatency(browser: Browser, root: string, url: string, size: number): Promise<number[]> {
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

/** Opens 20 boards, moves 200 backlog tasks into ready/ by hand, and returns how much the daemon's RSS grew once every board shows every move (MB). */
export async function rssWithBoards(
  browser: Browser,
  root: string,
  url: string,
  pid: number,
  size: number,
  log: (text: string) => void,
): Promise<number> {
  const before = rssMb(pid);
  const pages = await Promise.all(
    Array.from({ length: 20 }, async () => {
      const page = await (await browser.newContext()).newPage();
      page.setDefaultTimeout(120_000); // 20 pages at once on a loaded machine
      await page.goto(url);
      await page.waitForSelector('[data-live="on"]');
      return page;
    }),
  );
  const paths = toPaths(root);
  const moves = Math.min(200, size / 20 - 21); // the last 20 backlog tasks are the hand-move step's
  for (let i = 1; i <= moves; i++) {
    const id = idOf(i * 20 + 1); // backlog tasks
    renameSync(paths.taskFile('backlog', id), paths.taskFile('ready', id));
    if (i % 20 === 0) await new Promise((r) => setTimeout(r, 100));
  }
  await Promise.all(
    pages.map((page) =>
      page.waitForFunction(
        (count) => document.querySelectorAll('[data-column="ready"] [data-card]').length >= count,
        size / 20 + 20 + moves,
        { timeout: 120_000 },
      ),
    ),
  );
  const after = rssMb(pid);
  log(`web: RSS ${before.toFixed(0)} MB before 20 boards, ${after.toFixed(0)} MB after`);
  await Promise.all(pages.map((page) => page.context().close()));
  return after - before;
}

// --- internal ---

function idOf(i: number): string {
  return `TASK-2026-01-01-${String(i).padStart(6, '0')}`;
}
