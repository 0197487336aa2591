import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Usage } from '../../lib/core/usage.js';
import { recordRunUsage } from '../../lib/store/changes/usage.js';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { closeDaemons } from '../helpers/daemon.js';
import { cleanRoots, fixedClock, tempRoot } from '../helpers/root.js';
import { authed, startWebDaemon, webRequest } from '../helpers/web.js';

const USAGE: Usage = {
  inputTokens: 1000,
  outputTokens: 200,
  cacheReadTokens: 3000,
  cacheWriteTokens: 0,
  costUsd: 0.25,
};

/** A root whose task `id` has two runs of coder: one three days ago, one now of unknown cost. */
async function seed() {
  const root = tempRoot();
  writeOrg(root, {
    agents: [
      { id: 'coder', name: 'Coder' },
      { id: 'idle', name: 'Idle' },
    ],
  });
  const now = Date.now();
  const earlier = createStore({ root, clock: fixedClock(new Date(now - 3 * 86_400_000).toISOString()) });
  const { task } = await earlier.create({ title: 'Metered', createdBy: 'test' });
  const record = { taskId: task.id, agent: 'coder', runtime: 'codex', model: 'gpt', cliSession: 'th-1' };
  await recordRunUsage(earlier, { ...record, run: 's-1', usage: USAGE });
  await recordRunUsage(createStore({ root }), { ...record, run: 's-2', usage: { ...USAGE, costUsd: null } });
  return { root, id: task.id };
}

async function getJson(port: number, token: string, path: string): Promise<Record<string, any>> {
  const answer = await webRequest(port, 'GET', path, authed(token, port));
  assert.is(answer.status, 200, answer.text);
  return JSON.parse(answer.text);
}

const json = suite('web usage (JSON)');
json.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

json("the task's JSON carries its usage; the agents' JSON each agent's usage today and over 30 days", async () => {
  const { root, id } = await seed();
  const { web } = await startWebDaemon(root);
  const detail = await getJson(web.port, web.token, `/api/task/${id}`);
  assert.equal(detail.usage, {
    inputTokens: 2000,
    outputTokens: 400,
    cacheReadTokens: 6000,
    cacheWriteTokens: 0,
    costUsd: null,
    runs: 2,
    lastRun: 's-2',
  });
  const { agents } = await getJson(web.port, web.token, '/api/agents');
  const coder = agents.find((agent: { id: string }) => agent.id === 'coder');
  assert.equal(coder.usage.today, {
    inputTokens: 1000,
    outputTokens: 200,
    cacheReadTokens: 3000,
    cacheWriteTokens: 0,
    costUsd: null,
    runs: 1,
    knownCostUsd: 0,
    unpricedRuns: 1,
  });
  assert.is(coder.usage.last30Days.runs, 2);
  assert.is(coder.usage.last30Days.knownCostUsd, 0.25);
  const idle = agents.find((agent: { id: string }) => agent.id === 'idle');
  assert.is(idle.usage.last30Days.runs, 0);
});

const pages = suite('web usage (pages)');
let browser: Browser;
pages.before(async () => void (browser = await launchBrowser()));
pages.after(async () => browser.close());
pages.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

pages('the task page and the agents page show the usage, an unknown cost as such', async () => {
  const { root, id } = await seed();
  const { web } = await startWebDaemon(root);
  const { page, close } = await openPage(browser);
  await page.goto(web.url.replace('/?', `/task/${id}?`));
  await page.waitForSelector('[data-usage]');
  assert.is(
    await page.textContent('[data-usage]'),
    'usage 2 runs · 8,400 tokens (input 2,000 · output 400 · cache read 6,000 · cache write 0) · cost unknown',
  );
  await page.goto(web.url.replace('/?', '/agents?'));
  await page.waitForSelector('[data-agent="coder"] [data-usage="today"]');
  assert.is(await page.textContent('[data-agent="coder"] [data-usage="today"]'), '1 run, 4,200 tokens, cost unknown');
  assert.is(await page.textContent('[data-agent="coder"] [data-usage="30d"]'), '2 runs, 8,400 tokens, ≥ $0.25');
  assert.is(await page.textContent('[data-agent="idle"] [data-usage="30d"]'), '-');
  await close();
});

json.run();
pages.run();
