import { readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { quittingAgent, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, fixedClock, tempRoot, within } from '../helpers/root.js';

// Retries that mean something: a failed dispatch waits 5 s, then 30 s (aof.daemon.retryBackoffMs),
// on the daemon's clock, which the test moves instead of sleeping.
const backoff = suite('e2e.dispatch backoff');
backoff.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

type Hold = { kind: string; taskId: string; reason?: string };

async function actionOf(root: string, id: string): Promise<Hold | undefined> {
  const { body } = await call(root, 'POST', '/v1/scheduler/tick');
  return (body as { actions: Hold[] }).actions.find((a) => a.taskId === id);
}

backoff(
  'a failed run sets nextAttemptAt; the task waits for it, shown by scheduler run and the board, then is tried again',
  async () => {
    const root = tempRoot();
    const start = new Date(Math.ceil((Date.now() + 3_600_000) / 1000) * 1000); // ahead of the real clock, which the board compares with
    const clock = fixedClock(start.toISOString());
    const at = (ms: number) => new Date(start.getTime() + ms).toISOString();
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: quittingAgent() }],
      aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 600_000 } },
    });
    await startTestDaemon(root, { tools: TOOLS, env: process.env, clock });
    const { body } = await call(root, 'POST', '/v1/tool/invoke', {
      tool: 'svc_dispatch',
      params: { title: 'Flaky', brief: 'x', agent: 'dev' },
    });
    const id = (body as { result: { taskId: string } }).result.taskId;
    const first = await within(
      20_000,
      async () => (await readEvents(root, { taskId: id, type: 'dispatch.failed' }))[0],
      'the first dispatch.failed',
    );
    assert.equal(first.payload.nextAttemptAt, at(5000));
    assert.is(first.payload.failureCount, 1);
    const task = (await createStore({ root }).get(id)).task;
    assert.equal([task.status, task.metadata.nextAttemptAt], ['ready', at(5000)]);
    const plan = await runSvc({ SVC_HOME: root }, 'scheduler', 'run');
    assert.match(plan.stdout, `${id}: backoff: 1 failed dispatch; next attempt at ${at(5000)}`);
    const board = await runSvc({ SVC_HOME: root, COLUMNS: '200' }, 'board');
    assert.match(board.stdout, `retry at ${at(5000).slice(11, 19)} UTC`);
    assert.equal((await actionOf(root, id))?.reason, 'backoff');
    clock.advance(5000);
    assert.is((await actionOf(root, id))?.kind, 'dispatch');
    const second = await within(
      20_000,
      async () => (await readEvents(root, { taskId: id, type: 'dispatch.failed' }))[1],
      'the second dispatch.failed',
    );
    assert.equal([second.payload.failureCount, second.payload.nextAttemptAt], [2, at(35_000)]);
    clock.advance(29_999);
    assert.equal((await actionOf(root, id))?.reason, 'backoff');
    assert.is(
      (await readEvents(root, { taskId: id, type: 'task.dispatched' })).length,
      2,
      'no attempt before its time',
    );
  },
);

backoff('a title or body with a NUL character is refused at creation, writing nothing', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { tools: TOOLS });
  for (const params of [
    { title: 'a\u0000b', brief: 'x' },
    { title: 'ok', brief: 'before\u0000after' },
  ]) {
    const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params });
    assert.is(status, 400);
    const error = (body as { error: { code: string; message: string } }).error;
    assert.is(error.code, 'validation_error');
    assert.match(error.message, /contains a NUL character/);
  }
  const files = ['backlog', 'ready'].flatMap((status) =>
    readdirSync(`${root}/tasks/${status}`).filter((name) => name.endsWith('.md')),
  );
  assert.equal(files, []);
  const refused = await createStore({ root })
    .create({ title: 'x', body: 'y\u0000', createdBy: 'test' })
    .then(
      () => null,
      (err: Error) => err,
    );
  assert.match(String(refused?.message), /Body contains a NUL character/);
});

backoff.run();
