import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events.js';
import { toPaths } from '../../lib/store/paths.js';
import { TOOLS } from '../../lib/tools/index.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// An answer is the truth (README, "Reliability"): once the task file is committed, the call says so.

type Reply = { status: number; body: { ok: boolean; result?: { taskId: string; status: string }; error?: { code: string; message: string } } };

const invoke = async (root: string, tool: string, params: unknown): Promise<Reply> => (await call(root, 'POST', '/v1/tool/invoke', { tool, params })) as Reply;

const answers = suite('e2e: an answer is the truth');
answers.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

answers('a change whose event cannot be appended still succeeds; the daemon logs the outage and appends the event once it can', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const paths = toPaths(root);
  const first = await invoke(root, 'svc_dispatch', { title: 'Before', brief: 'Fine.' });
  assert.is(first.status, 200);
  rmSync(paths.events, { recursive: true, force: true });
  writeFileSync(paths.events, 'not a directory\n'); // every append now fails with ENOTDIR
  const during = await invoke(root, 'svc_dispatch', { title: 'During', brief: 'Applied though unlogged.' });
  assert.is(during.status, 200, JSON.stringify(during.body));
  const id = during.body.result!.taskId;
  const moved = await invoke(root, 'svc_task_update', { taskId: id, status: 'ready' });
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  const hook = await call(root, 'POST', '/v1/event/agent-end', { sessionKey: 'agent:dev:svc-x' });
  assert.is(hook.status, 202, 'a plugin hook that took effect is acknowledged too');
  await within(5000, () => /error events\.append_failed .*ENOTDIR/.test(readFileSync(paths.daemonLog, 'utf8')), 'the outage in the daemon log');
  rmSync(paths.events);
  mkdirSync(paths.events, { mode: 0o700 });
  const events = await within(10_000, async () => {
    const found = await readEvents(root, { taskId: id });
    return found.length === 2 ? found : null;
  }, 'the pending events appended after the repair');
  assert.equal(events.map((e) => [e.type, e.payload.title ?? e.payload.to]), [['task.created', 'During'], ['task.transitioned', 'ready']]);
  assert.is((await readEvents(root, { type: 'plugin.agent-end' })).length, 1);
  await within(5000, () => /info events\.recovered/.test(readFileSync(paths.daemonLog, 'utf8')), 'the recovery in the daemon log');
  await daemon.close();
  assert.is((await readEvents(root, { taskId: id })).length, 2, 'written once, not again at the stop');
});

answers('a daemon starts while its event log cannot be appended; daemon.started is written once it can', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  mkdirSync(paths.data, { recursive: true, mode: 0o700 });
  writeFileSync(paths.events, 'not a directory\n');
  const daemon = await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const health = await call(root, 'GET', '/healthz');
  assert.is(health.status, 200, 'the daemon serves though its event log is broken');
  await within(5000, () => /error events\.append_failed .*ENOTDIR/.test(readFileSync(paths.daemonLog, 'utf8')), 'the outage in the daemon log');
  rmSync(paths.events);
  mkdirSync(paths.events, { mode: 0o700 });
  await within(10_000, async () => (await readEvents(root, { type: 'daemon.started' })).length === 1, 'daemon.started appended after the repair');
  await daemon.close();
  assert.equal((await readEvents(root)).map((e) => e.type), ['daemon.started', 'daemon.stopped']);
});

answers.run();
