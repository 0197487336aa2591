// Boards opened from a process of their own, run on the browser's CPU: the browser and its driver,
// whose protocol traffic for 20 pages would otherwise be handled on the daemon's CPU (web-latency.ts,
// the rounds with the CPUs split). `openBoardsApart` starts this file as that process: run as
// `node --import tsx bench/boards-apart.ts <url> <count> <cards>`, it opens the boards, prints
// `ready` and closes them when its standard input ends; with `--streams <url> <count>` it opens
// only the boards' event streams, read and parsed as a page does, without drawing
// (`openStreamsApart`). `drawBoards` opens boards in a browser at hand (the rounds on the same CPUs).
import { spawn } from 'node:child_process';
import { get, type ClientRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const self = fileURLToPath(import.meta.url);
if (process.argv[1] === self) {
  const [first, second, third] = process.argv.slice(2);
  if (first === '--streams') await runStreams(second!, Number(third));
  else await runBoards(first!, Number(second), Number(third));
}

/**
 * Opens `count` boards of `url` from a child process run on `cpus` (this file): the
 * browser and its driver, whose protocol traffic for 20 pages would otherwise be handled on the
 * daemon's CPU. Resolves once every board drew `cards` cards, with their closing.
 */
export function openBoardsApart(url: string, count: number, cards: number, cpus: string): Promise<() => Promise<void>> {
  return startApart([url, String(count), String(cards)], cpus);
}

/**
 * Opens the event streams of `count` boards of `url` from a child process run on `cpus`: what open
 * boards ask of the daemon (a stream each, every change sent to each), each change read and parsed
 * as a page does, without the drawing. Resolves once every stream had its snapshot, with their closing.
 */
export function openStreamsApart(url: string, count: number, cpus: string): Promise<() => Promise<void>> {
  return startApart(['--streams', url, String(count)], cpus);
}

/** Opens `count` boards of `url` in `browser`, each in its own context, each until it drew `cards` cards. */
export function drawBoards(browser: Browser, url: string, count: number, cards: number): Promise<Page[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const page = await (await browser.newContext()).newPage();
      page.setDefaultTimeout(120_000);
      await page.goto(url);
      await page.waitForFunction((least) => document.querySelectorAll('[data-card]').length >= least, cards);
      return page;
    }),
  );
}

/** Headless Chromium from `SVC_CHROMIUM` or Debian's `/usr/bin/chromium` (no sandbox as root). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.SVC_CHROMIUM ?? '/usr/bin/chromium',
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

// --- internal ---

async function startApart(args: string[], cpus: string): Promise<() => Promise<void>> {
  const child = spawn('taskset', ['-c', cpus, process.execPath, '--import', 'tsx', self, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = await new Promise<boolean>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(true));
    void exited.then(() => resolve(false));
  });
  if (!ready) throw new Error(`bench: the boards' process exited with ${await exited} before its boards were open`);
  return async () => {
    child.stdin.end();
    await exited;
  };
}

/** Waits for standard input to end: the parent is done with this process's boards. */
async function untilReleased(): Promise<void> {
  process.stdout.write('ready\n');
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
}

/** The child's part: `count` boards of `url`, each until it drew `cards` cards; closed when stdin ends. */
async function runBoards(url: string, count: number, cards: number): Promise<void> {
  const browser = await launchChromium();
  try {
    await drawBoards(browser, url, count, cards);
    await untilReleased();
  } finally {
    await browser.close();
  }
}

/** The child's part with `--streams`: `count` event streams of the board at `url`, each parsed event by event. */
async function runStreams(url: string, count: number): Promise<void> {
  const board = new URL(url);
  const requests: ClientRequest[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const headers = { 'x-svc-token': board.searchParams.get('token') ?? '', accept: 'text/event-stream' };
          const req = get({ host: board.hostname, port: board.port, path: '/api/board/stream', headers }, (res) => {
            if (res.statusCode !== 200) return reject(new Error(`bench: the board stream answered ${res.statusCode}`));
            let buffered = '';
            res.setEncoding('utf8').on('data', (chunk: string) => {
              const events = (buffered += chunk).split('\n\n');
              buffered = events.pop()!;
              for (const event of events) {
                const data = event
                  .split('\n')
                  .filter((line) => line.startsWith('data: '))
                  .map((line) => line.slice(6))
                  .join('\n');
                if (data) JSON.parse(data);
                if (event.includes('event: snapshot')) resolve();
              }
            });
          });
          req.on('error', reject);
          requests.push(req);
        }),
    ),
  );
  await untilReleased();
  for (const req of requests) req.destroy();
}
