import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/disk/paths.js';
import { renderTask } from '../../lib/store/disk/task-file.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { closeDaemons, writeTaskFiles } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { startWebDaemon } from '../helpers/web.js';

const taskPage = suite('web.taskPage');
let browser: Browser;
taskPage.before(async () => void (browser = await launchBrowser()));
taskPage.after(async () => browser.close());
taskPage.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

taskPage(
  'the task page shows the timeline newest first, follows the log lines live, and shows a refused action inline',
  async () => {
    const root = tempRoot();
    const [id] = await writeTaskFiles(root, 1);
    const paths = toPaths(root);
    const { web } = await startWebDaemon(root);
    const { page, close } = await openPage(browser);
    await page.goto(web.url.replace('/?', `/task/${id}?`));
    await page.waitForSelector(`[data-task="${id}"]`);
    await page.click('[data-action="promote"]');
    await page.waitForSelector('.timeline [data-event="task.promoted"], .timeline li:first-child');
    await within(
      15_000,
      async () => existsSync(paths.taskFile('ready', id!)) && (await page.textContent('[data-status]')) === 'ready',
      'the page shows ready',
    );
    const first = await page.$eval('.timeline li', (li) => li.getAttribute('data-event'));
    assert.ok(first && first !== 'task.created', `newest first: ${first}`);
    // A block needs a reason: the operator tool's refusal shows inline and nothing moves.
    await page.click('[data-action="block"]');
    await page.waitForSelector('[role="alert"]');
    assert.match((await page.textContent('[role="alert"]')) ?? '', /reason/);
    assert.ok(existsSync(paths.taskFile('ready', id!)));
    // Until the task has run logs, the agent and daemon log lines that name it; then its run logs.
    mkdirSync(paths.logs, { recursive: true });
    appendFileSync(`${paths.logs}/agents.log`, `working on ${id}\nsomething about another task\n`);
    await page.waitForFunction(
      (text) => document.querySelector('[data-logs]')?.textContent?.includes(text),
      `working on ${id}`,
      { timeout: 15_000 },
    );
    assert.not.match((await page.textContent('[data-logs]')) ?? '', /another task/);
    mkdirSync(`${paths.runLogs}/${id}`, { recursive: true });
    writeFileSync(`${paths.runLogs}/${id}/run-1.log`, 'step one\n');
    await page.waitForFunction(
      () => document.querySelector('[data-logs]')?.textContent?.includes('step one'),
      undefined,
      { timeout: 15_000 },
    );
    appendFileSync(`${paths.runLogs}/${id}/run-1.log`, 'step two\n');
    await page.waitForFunction(
      () => document.querySelector('[data-logs]')?.textContent?.includes('step two'),
      undefined,
      { timeout: 15_000 },
    );
    await close();
  },
);

const HOSTILE_TITLE = '<script>alert(1)</script><img src=x onerror="alert(2)"> <a href="javascript:alert(3)">x</a>';
const HOSTILE_BODY = [
  '<script>alert(4)</script>',
  '<img src="http://127.0.0.2:9/x.png" onerror="alert(5)">',
  '[click me](javascript:alert(6))',
  '[encoded](jav&#x61;script:alert(7))',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg4KTwvc2NyaXB0Pg==)',
  '![pixel](http://127.0.0.3:9/pixel.png)',
  '<a href="javascript:alert(9)">raw link</a>',
  '<iframe src="javascript:alert(10)"></iframe><svg onload="alert(11)"></svg>',
  '',
].join('\n\n');

taskPage(
  'a title and body full of scripts, onerror images and javascript: links render inert on the board and the task page',
  async () => {
    const root = tempRoot();
    const paths = toPaths(root);
    await writeTaskFiles(root, 0);
    const id = 'TASK-2026-01-01-666';
    const stamp = '2026-01-01T00:00:00.000Z';
    writeFileSync(
      paths.taskFile('backlog', id),
      renderTask(
        {
          schemaVersion: 1,
          id,
          project: 'test',
          title: HOSTILE_TITLE,
          status: 'backlog',
          priority: 'normal',
          routing: { agent: '<img src=x onerror=alert(12)>' },
          createdAt: stamp,
          updatedAt: stamp,
          lastTransitionAt: stamp,
          createdBy: 'test',
          dependsOn: [],
          metadata: { note: '<script>alert(13)</script>' },
        },
        HOSTILE_BODY,
      ),
    );
    const { web } = await startWebDaemon(root);
    const { page, watch, close } = await openPage(browser);
    await page.goto(web.url);
    await page.waitForSelector(`[data-card="${id}"]`);
    assert.is(await page.textContent(`[data-card="${id}"] .title`), HOSTILE_TITLE, 'the title is text');
    await page.click(`[data-card="${id}"] a.id`);
    await page.waitForSelector(`[data-task="${id}"] .body`);
    const body = page.locator('.body');
    assert.match((await body.textContent()) ?? '', /<script>alert\(4\)<\/script>/, 'raw HTML shows as text');
    for (const text of ['click me', 'encoded', 'data', 'raw link']) {
      const link = page.locator('.body a', { hasText: text });
      if (await link.count())
        await link
          .first()
          .click({ timeout: 2000 })
          .catch(() => undefined);
    }
    const hrefs = await page.$$eval('a[href]', (links) => links.map((a) => a.getAttribute('href')!));
    assert.ok(
      hrefs.every((href) => /^(\/|https?:)/.test(href)),
      `only page and web links: ${hrefs.join(' ')}`,
    );
    assert.is(await page.$$eval('.body img, .body iframe, .body svg, .body script', (list) => list.length), 0);
    assert.is(await page.$$eval('script', (list) => list.length), 1, "the page's own script alone");
    await within(
      15_000,
      () => watch.requests.some((url) => url.endsWith(`/api/task/${id}/log`)),
      'the page settled (its log stream asked)',
    );
    assert.equal(watch.dialogs, [], 'no dialog');
    const origin = `http://127.0.0.1:${web.port}/`;
    assert.equal(
      watch.requests.filter((url) => !url.startsWith(origin)),
      [],
      'no request leaves the board',
    );
    assert.equal(watch.errors, []);
    await close();
  },
);

taskPage(
  "a done or cancelled task's page offers no priority, block, cancel or approval control; a backlog task's does",
  async () => {
    const root = tempRoot();
    const statuses = ['backlog', 'done', 'cancelled'] as const;
    const ids = await writeTaskFiles(root, 3, (i) => statuses[i - 1]!);
    const { web } = await startWebDaemon(root);
    const { page, close } = await openPage(browser);
    const controls = async (id: string) => {
      await page.goto(web.url.replace('/?', `/task/${id}?`));
      await page.waitForSelector(`[data-task="${id}"] .actions`);
      return page.$$eval('.actions [data-action]', (list) => list.map((el) => el.getAttribute('data-action')));
    };
    assert.ok((await controls(ids[0]!)).includes('priority'), 'backlog: priority offered');
    for (const id of ids.slice(1)) assert.equal(await controls(id), [], `${id}: no control`);
    await close();
  },
);

taskPage.run();
