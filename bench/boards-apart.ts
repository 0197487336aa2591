// Boards opened from a process of their own, run on the browser's CPU: the browser and its driver,
// whose protocol traffic for 20 pages would otherwise be handled on the daemon's CPU (web.ts, the
// pinned rounds). `openBoardsApart` starts this file as that process: run as
// `node --import tsx bench/boards-apart.ts <url> <count> <cards>`, it opens the boards, prints
// `ready` and closes them when its standard input ends. `drawBoards` opens boards in a browser at
// hand (web.ts's unpinned rounds use it too).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const self = fileURLToPath(import.meta.url);
if (process.argv[1] === self) await runBoards(process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]));

/**
 * Opens `count` boards of `url` from a child process run on `cpus` (this file): the
 * browser and its driver, whose protocol traffic for 20 pages would otherwise be handled on the
 * daemon's CPU. Resolves once every board drew `cards` cards, with their closing.
 */
export async function openBoardsApart(url: string, count: number, cards: number, cpus: string): Promise<() => Promise<void>> {
  const child = spawn('taskset', ['-c', cpus, process.execPath, '--import', 'tsx', self, url, String(count), String(cards)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = await new Promise<boolean>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(true));
    void exited.then(() => resolve(false));
  });
  if (!ready) throw new Error(`bench: the boards' process exited with ${await exited} before its boards were drawn`);
  return async () => {
    child.stdin.end();
    await exited;
  };
}

/** Opens `count` boards of `url` in `browser`, each in its own context, each until it drew `cards` cards. */
export function drawBoards(browser: Browser, url: string, count: number, cards: number): Promise<Page[]> {
  return Promise.all(Array.from({ length: count }, async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(120_000);
    await page.goto(url);
    await page.waitForFunction((least) => document.querySelectorAll('[data-card]').length >= least, cards);
    return page;
  }));
}

// --- internal ---

/** The child's part: `count` boards of `url`, each until it drew `cards` cards; closed when stdin ends. */
async function runBoards(url: string, count: number, cards: number): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.SVC_CHROMIUM ?? '/usr/bin/chromium', args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  try {
    await drawBoards(browser, url, count, cards);
    process.stdout.write('ready\n');
    process.stdin.resume();
    await new Promise((resolve) => process.stdin.once('end', resolve));
  } finally {
    await browser.close();
  }
}
