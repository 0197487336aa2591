import { existsSync, renameSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/disk/paths.js';
import { waitingAgent, writeOrg } from '../helpers/agents.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { closeDaemons, writeTaskFiles } from '../helpers/daemon.js';
import { freePort } from '../helpers/net.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { startWebDaemon } from '../helpers/web.js';

const board = suite('web.board');
let browser: Browser;
board.before(async () => void (browser = await launchBrowser()));
board.after(async () => browser.close());
board.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** The status column of each card on the page (a card shown twice is listed twice). */
function columnsOf(page: Page): Promise<Array<[string, string]>> {
  return page.$$eval('[data-card]', (cards) =>
    cards.map(
      (card) =>
        [card.getAttribute('data-card')!, card.closest('[data-column]')!.getAttribute('data-column')!] as [
          string,
          string,
        ],
    ),
  );
}

async function inColumn(page: Page, id: string, status: string): Promise<boolean> {
  const cards = (await columnsOf(page)).filter(([cardId]) => cardId === id);
  return cards.length === 1 && cards[0]![1] === status;
}

board(
  'the board lists tasks in their columns; a hand move into ready moves the card live, and a local agent takes it to in-progress and done',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: waitingAgent() }] });
    const [a, b, c] = await writeTaskFiles(root, 3, (i) => (i === 3 ? 'blocked' : 'backlog'));
    const paths = toPaths(root);
    const { daemon, web } = await startWebDaemon(root, { schedule: true });
    await daemon.index.watching;
    const { page, watch, close } = await openPage(browser);
    await page.goto(web.url);
    assert.not.match(page.url(), /token=/, 'the token leaves the address bar');
    await page.waitForSelector(`[data-column="backlog"] [data-card="${a}"]`);
    assert.ok(await inColumn(page, b!, 'backlog'));
    assert.ok(await inColumn(page, c!, 'blocked'));
    assert.is(await page.textContent('[data-count="backlog"]'), '2');
    const loads = watch.requests.filter((url) => /\/$|\/\?/.test(url)).length;
    renameSync(paths.taskFile('backlog', a!), paths.taskFile('ready', a!));
    await within(15_000, () => inColumn(page, a!, 'in-progress'), 'the card in in-progress');
    writeFileSync(`${root}/go-${a}`, '');
    await within(15_000, () => inColumn(page, a!, 'done'), 'the card in done');
    assert.is(watch.requests.filter((url) => /\/$|\/\?/.test(url)).length, loads, 'no reload');
    assert.equal(watch.errors, []);
    await close();
  },
);

board('the promote and cancel buttons move the task files', async () => {
  const root = tempRoot();
  const [a, b] = await writeTaskFiles(root, 2);
  const paths = toPaths(root);
  const { web } = await startWebDaemon(root);
  const { page, close } = await openPage(browser);
  await page.goto(web.url);
  await page.click(`[data-card="${a}"] [data-action="promote"]`);
  await within(15_000, () => existsSync(paths.taskFile('ready', a!)), 'the file in ready/');
  await within(15_000, () => inColumn(page, a!, 'ready'), 'the card in ready');
  await page.click(`[data-card="${b}"] [data-action="cancel"]`);
  await within(15_000, () => existsSync(paths.taskFile('cancelled', b!)), 'the file in cancelled/');
  await within(15_000, () => inColumn(page, b!, 'cancelled'), 'the card in cancelled');
  await close();
});

board('a daemon restart mid-session resumes the live view: no task twice, none in a column it left', async () => {
  const root = tempRoot();
  const port = await freePort();
  writeOrg(root, { aof: { daemon: { webPort: port } } });
  const ids = await writeTaskFiles(root, 4);
  const paths = toPaths(root);
  let { daemon, web } = await startWebDaemon(root);
  assert.is(web.port, port, 'aof.daemon.webPort opens the board at start');
  const { page, close } = await openPage(browser);
  await page.goto(web.url);
  await page.waitForSelector(`[data-card="${ids[3]}"]`);
  renameSync(paths.taskFile('backlog', ids[0]!), paths.taskFile('ready', ids[0]!));
  await within(15_000, () => inColumn(page, ids[0]!, 'ready'), 'the first move');
  await daemon.close();
  await page.waitForSelector('[data-live="off"]');
  // While no daemon runs, tasks move on disk: the page learns it from the next daemon's snapshot.
  renameSync(paths.taskFile('ready', ids[0]!), paths.taskFile('blocked', ids[0]!));
  renameSync(paths.taskFile('backlog', ids[1]!), paths.taskFile('ready', ids[1]!));
  ({ daemon, web } = await startWebDaemon(root));
  await daemon.index.watching;
  await page.waitForSelector('[data-live="on"]', { timeout: 15_000 });
  await within(
    15_000,
    async () => (await inColumn(page, ids[0]!, 'blocked')) && inColumn(page, ids[1]!, 'ready'),
    'the moves made while down',
  );
  renameSync(paths.taskFile('backlog', ids[2]!), paths.taskFile('ready', ids[2]!));
  await within(15_000, () => inColumn(page, ids[2]!, 'ready'), 'a move after the restart');
  const shown = await columnsOf(page);
  assert.equal(shown.map(([id]) => id).sort(), [...ids].sort(), `each task once: ${JSON.stringify(shown)}`);
  assert.equal(Object.fromEntries(shown), {
    [ids[0]!]: 'blocked',
    [ids[1]!]: 'ready',
    [ids[2]!]: 'ready',
    [ids[3]!]: 'backlog',
  });
  await close();
});

board('done shows the latest 50 with more; filters narrow the board and stay in the URL', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 60, () => 'done');
  const [backlog] = await writeTaskFiles(root, 1, () => 'backlog', 61);
  const { web } = await startWebDaemon(root);
  const { page, close } = await openPage(browser);
  await page.goto(web.url);
  await page.waitForSelector('[data-column="done"] [data-card]');
  assert.is(await page.textContent('[data-count="done"]'), '60');
  assert.is(await page.locator('[data-column="done"] [data-card]').count(), 50);
  await page.click('[data-more="done"]');
  await within(
    15_000,
    async () => (await page.locator('[data-column="done"] [data-card]').count()) === 60,
    'all 60 after more',
  );
  await page.fill('input[name="text"]', 'Task 61');
  await within(15_000, async () => (await page.locator('[data-card]').count()) === 1, 'one card left');
  await within(15_000, () => /\?text=Task\+61$/.test(page.url()), 'the filter in the URL');
  await page.reload();
  await page.waitForSelector(`[data-card="${backlog}"]`);
  assert.is(await page.locator('[data-card]').count(), 1, 'the filter came back from the URL');
  await close();
});

board('the agents page shows each agent with its active run and the scheduler plan', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [
      { id: 'dev', name: 'Dev', command: waitingAgent() },
      { id: 'idle', name: 'Idle', command: waitingAgent() },
    ],
  });
  const [a] = await writeTaskFiles(root, 1, () => 'ready');
  const { web } = await startWebDaemon(root, { schedule: true });
  const { page, close } = await openPage(browser);
  await page.goto(web.url.replace('/?', '/agents?'));
  await page.waitForSelector('[data-agent="idle"]');
  await page.waitForSelector(`[data-agent="dev"] a[href="/task/${a}"]`, { timeout: 15_000 });
  assert.match((await page.textContent('[data-mode]')) ?? '', /\w/);
  writeFileSync(`${root}/go-${a}`, '');
  await page.waitForSelector(`[data-agent="dev"] a[href="/task/${a}"]`, { state: 'detached', timeout: 15_000 });
  await close();
});

board.run();
