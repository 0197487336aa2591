import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { closeDaemons } from '../helpers/daemon.js';
import { waitingAgent, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { startWebDaemon } from '../helpers/web.js';

const holds = suite('web.board cards of held and overdue tasks');
let browser: Browser;
holds.before(async () => void (browser = await launchBrowser()));
holds.after(async () => browser.close());
holds.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

holds('a load of the board asks for nothing that answers an error (its icon included)', async () => {
  const root = tempRoot();
  const { web } = await startWebDaemon(root);
  const { page, close } = await openPage(browser);
  const failed: string[] = [];
  page.on(
    'response',
    (response) => void (response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`)),
  );
  page.on('console', (message) => void (/Failed to load resource/.test(message.text()) && failed.push(message.text())));
  await page.goto(web.url);
  await page.waitForSelector('[data-column="backlog"]');
  const icon = await page.evaluate(() =>
    fetch('/favicon.ico').then((res) => `${res.status} ${res.headers.get('content-type')}`),
  );
  assert.is(icon, '200 image/svg+xml');
  await page.reload();
  await page.waitForSelector('[data-column="backlog"]');
  await page.waitForLoadState('networkidle');
  assert.equal(failed, []);
  await close();
});

holds(
  'cards say why a ready task is held (no route, a paused agent, not before a time) and mark a task past its due time',
  async () => {
    const root = tempRoot();
    writeOrg(root, {
      agents: [
        { id: 'dev', name: 'Dev', command: waitingAgent() },
        { id: 'ops', name: 'Ops', command: waitingAgent() },
      ],
    });
    const store = createStore({ root });
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const make = async (title: string, fields: Record<string, unknown>) =>
      (await store.create({ title, createdBy: 'test', status: 'ready', ...fields })).task.id;
    const noRoute = await make('Nobody', { routing: { agent: 'ghost' } });
    const paused = await make('Paused', { routing: { agent: 'ops' } });
    const notBefore = await make('Later', { routing: { agent: 'dev' }, notBefore: later });
    const overdue = (await store.create({ title: 'Late', createdBy: 'test', dueAt: past })).task.id;
    assert.is((await svc(root, 'agent', 'pause', 'ops', '--reason', 'on leave')).code, 0);
    const { web } = await startWebDaemon(root, { schedule: true });
    const { page, close } = await openPage(browser);
    await page.goto(web.url);
    const factsOf = (id: string) => page.textContent(`[data-card="${id}"] .facts`).then((text) => text ?? '');
    await within(
      15_000,
      async () => /held: no-route \(.*ghost/.test(await factsOf(noRoute)),
      'the no-route card says why',
    );
    await within(
      15_000,
      async () => /held: agent-paused \(.*ops/.test(await factsOf(paused)),
      "the paused agent's card says why",
    );
    assert.match(
      await factsOf(notBefore),
      new RegExp(`not before ${later.slice(0, 16).replace('T', ' ')} UTC \\(in (23h 59m|1d|24h)`),
    );
    assert.match(await factsOf(overdue), /due 1h( 0m)? ago/);
    assert.is(await page.textContent(`[data-card="${overdue}"] .mark.overdue`), 'overdue');
    assert.not.ok(await page.$(`[data-card="${notBefore}"] .mark.overdue`));
    await close();
  },
);

holds.run();
