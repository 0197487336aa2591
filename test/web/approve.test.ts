import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { APPROVAL_TOOLS } from '../../lib/tools/approval.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { writeOrg } from '../helpers/agents.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { svc } from '../helpers/cli.js';
import { closeDaemons } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { startWebDaemon } from '../helpers/web.js';

// The board's approve button decides the gate the card shows, and only that one.
const approve = suite('web.approve');
let browser: Browser;
approve.before(async () => void (browser = await launchBrowser()));
approve.after(async () => browser.close());
approve.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** A task of a workflow with two approval gates that dev implemented: it waits at `sign1`. */
async function waitingTask(root: string): Promise<string> {
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev' }], roles: { implementer: { agents: ['dev'] } } });
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  writeFileSync(
    `${root}/org/workflows/ship.yaml`,
    'workflow:\n  name: ship\n  gates:\n    - { id: implement, role: implementer }\n    - { id: sign1, approval: true }\n    - { id: sign2, approval: true }\n',
  );
  const id = (await svc(root, 'task', 'create', 'Ship it', '--workflow', 'ship')).stdout.split('\n')[0]!;
  await svc(root, 'task', 'promote', id);
  const session = /session ([0-9a-f-]+)/.exec((await svc(root, 'task', 'claim', id, '--agent', 'dev')).stdout)![1]!;
  const done = await svc(
    root,
    'tool',
    'svc_task_complete',
    JSON.stringify({ taskId: id, sessionId: session, outcome: 'complete', actor: 'dev' }),
  );
  assert.is(done.code, 0, done.stderr);
  return id;
}

approve(
  'a click on a card waiting at the first of two approval gates approves that gate, and the card then waits at the second',
  async () => {
    const root = tempRoot();
    const id = await waitingTask(root);
    const { web } = await startWebDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS, ...APPROVAL_TOOLS] });
    const { page, watch, close } = await openPage(browser);
    await page.goto(web.url);
    await page.click(`[data-card="${id}"] [data-action="approve"]`);
    const awaitingGate = async () =>
      ((await createStore({ root }).get(id)).task.metadata.awaiting as { gate?: string } | undefined)?.gate;
    await within(15_000, async () => (await awaitingGate()) === 'sign2', 'the task to wait at sign2');
    await page.waitForSelector(`[data-card="${id}"] .gate:text("gate sign2")`);
    assert.is(await page.$(`[data-card="${id}"] [role="alert"]`), null, 'no refusal shown');
    assert.equal(watch.errors, []);
    await close();
  },
);

approve.run();
