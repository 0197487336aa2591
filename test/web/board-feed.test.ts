import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../lib/core/status.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { renderTask } from '../../lib/store/disk/task-file.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { closeDaemons, taskText, writeTaskFiles } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { authed, readEvents, startWebDaemon } from '../helpers/web.js';

const feed = suite('web.boardFeed');
let browser: Browser;
feed.before(async () => void (browser = await launchBrowser()));
feed.after(async () => browser.close());
feed.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** Every task file of the tree as `id column`, sorted. */
function treeOf(root: string): string[] {
  const paths = toPaths(root);
  return STATUSES.flatMap((status) =>
    readdirSync(paths.statusDir(status))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${name.slice(0, -3)} ${status}`),
  ).sort();
}

/** Every card of the page as `id column`, sorted (a card shown twice is listed twice). */
async function boardOf(page: Page): Promise<string[]> {
  const cards = await page.$$eval('[data-card]', (list) =>
    list.map(
      (card) => `${card.getAttribute('data-card')} ${card.closest('[data-column]')!.getAttribute('data-column')}`,
    ),
  );
  return cards.sort();
}

feed(
  'a board open during a burst of 500 hand moves ends showing exactly the tree, and so does one connected mid-burst',
  async () => {
    const root = tempRoot();
    const ids = await writeTaskFiles(root, 520);
    const paths = toPaths(root);
    const { daemon, web } = await startWebDaemon(root);
    await daemon.index.watching;
    const first = await openPage(browser);
    await first.page.goto(web.url);
    await first.page.waitForSelector(`[data-card="${ids[519]}"]`);
    let second: Awaited<ReturnType<typeof openPage>> | null = null;
    for (let i = 0; i < 500; i++) {
      renameSync(paths.taskFile('backlog', ids[i]!), paths.taskFile('ready', ids[i]!));
      if (i === 250) {
        second = await openPage(browser);
        await second.page.goto(web.url);
      }
    }
    const tree = treeOf(root);
    assert.is(tree.filter((line) => line.endsWith(' ready')).length, 500);
    for (const { page } of [first, second!]) {
      await within(
        30_000,
        async () => JSON.stringify(await boardOf(page)) === JSON.stringify(tree),
        'the board equal to the tree',
      );
      assert.is(await page.textContent('[data-count="ready"]'), '500');
      assert.is(await page.textContent('[data-count="backlog"]'), '20');
    }
    assert.equal([...first.watch.errors, ...second!.watch.errors], []);
    await first.close();
    await second!.close();
  },
);

feed(
  'a task finishing sends its dependents again (their open dependencies), and a title edited by hand is a change',
  async () => {
    const root = tempRoot();
    const [a, b] = await writeTaskFiles(root, 2);
    const paths = toPaths(root);
    const dependent = 'TASK-2026-01-01-003';
    const stamp = '2026-01-01T00:00:00.000Z';
    writeFileSync(
      paths.taskFile('backlog', dependent),
      renderTask(
        {
          schemaVersion: 1,
          id: dependent,
          project: 'test',
          title: 'Waits on a',
          status: 'backlog',
          priority: 'normal',
          routing: { agent: 'dev' },
          createdAt: stamp,
          updatedAt: stamp,
          lastTransitionAt: stamp,
          createdBy: 'test',
          dependsOn: [a!],
          metadata: {},
        },
        'Body\n',
      ),
    );
    const { daemon, web } = await startWebDaemon(root);
    await daemon.index.watching;
    const headers = authed(web.token, web.port);
    const onSnapshot = (event: { event: string; data: any }) => {
      if (event.event !== 'snapshot') return;
      assert.equal(event.data.cards.find((card: any) => card.id === dependent).openDeps, [a]);
      renameSync(paths.taskFile('backlog', a!), paths.taskFile('done', a!));
    };
    const freed = (card: any) => card.id === dependent && card.openDeps.length === 0;
    const events = await readEvents(
      web.port,
      '/api/board/stream',
      headers,
      (list) => list.some((e) => e.event === 'change' && e.data.upserts.some(freed)),
      onSnapshot,
    );
    const last = events.at(-1)!;
    assert.ok(
      last.data.upserts.some((card: any) => card.id === a && card.status === 'done'),
      'the task and its dependent in one batch',
    );
    const retitled = readEvents(web.port, '/api/board/stream', { ...headers, 'last-event-id': last.id }, (list) =>
      list.some(
        (e) =>
          e.event === 'change' && e.data.upserts.some((card: any) => card.id === b && card.title === 'Renamed by hand'),
      ),
    );
    writeFileSync(paths.taskFile('backlog', b!), taskText(b!, 'backlog', 'Renamed by hand'));
    const changes = await retitled;
    assert.ok(changes.every((e) => e.event === 'change' && e.data.seq > last.data.seq));
  },
);

feed(
  'a lease countdown shows seconds in its last 5 minutes and ticks each second; a longer one shows whole minutes',
  async () => {
    const root = tempRoot();
    await writeTaskFiles(root, 3);
    const paths = toPaths(root);
    const stamp = '2026-01-01T00:00:00.000Z';
    const leased = (id: string, ms: number) => {
      const lease = { agent: 'dev', sessionId: `session-${id}`, expiresAt: new Date(Date.now() + ms).toISOString() };
      writeFileSync(
        paths.taskFile('in-progress', id),
        renderTask(
          {
            schemaVersion: 1,
            id,
            project: 'test',
            title: 'Leased',
            status: 'in-progress',
            priority: 'normal',
            routing: { agent: 'dev' },
            createdAt: stamp,
            updatedAt: stamp,
            lastTransitionAt: stamp,
            createdBy: 'test',
            dependsOn: [],
            metadata: {},
            lease,
          },
          'Body\n',
        ),
      );
    };
    leased('TASK-2026-01-01-008', 180_000);
    leased('TASK-2026-01-01-009', 600_000);
    const { web } = await startWebDaemon(root);
    const { page, close } = await openPage(browser);
    await page.goto(web.url);
    const first = await page.textContent('[data-card="TASK-2026-01-01-008"] .lease', { timeout: 15_000 });
    assert.match(first ?? '', /^lease (2m|3m) \d+s$/);
    await within(
      15_000,
      async () => (await page.textContent('[data-card="TASK-2026-01-01-008"] .lease')) !== first,
      'the countdown moved',
    );
    assert.match((await page.textContent('[data-card="TASK-2026-01-01-009"] .lease')) ?? '', /^lease (9m|10m)$/);
    await close();
  },
);

feed.run();
