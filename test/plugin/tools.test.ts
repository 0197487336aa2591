import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlugin } from '../../lib/plugin/index.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { TOOLS } from '../../lib/tools/index.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';
import { fakeApi } from './fake-api.js';

function registered(root: string) {
  const api = fakeApi({ config: { dataDir: root } });
  createPlugin({ environment: { env: {} } }).register(api);
  return api;
}

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected a rejection');
}

const test = suite('plugin.tools');
test.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

test('a tool forwards to the daemon with the calling agent as actor; svc result nested in details', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const api = registered(root);
  const tool = api.tool('svc_dispatch', { agentId: 'planner', sessionKey: 'agent:planner:main' });
  const result = await tool.execute('call-1', { title: 'From the gateway', brief: 'Do it.', actor: 'someone-else' });
  const details = result.details as { tool: string; result: { taskId: string; status: string } };
  assert.is(details.tool, 'svc_dispatch');
  assert.is(details.result.status, 'backlog');
  assert.not.ok('status' in (result.details as object), 'no top-level status for the gateway to grade');
  assert.equal(JSON.parse(result.content[0]!.text), details.result);
  const task = await createStore({ root }).get(details.result.taskId);
  assert.is(task.task.title, 'From the gateway');
  const created = await readEvents(root, { taskId: details.result.taskId, type: 'task.created' });
  assert.equal(
    created.map((e) => e.actor),
    ['planner'],
  );
});

test('svc_task_note is offered by the plugin: two agents noting on one task both stay, each as itself', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const { task } = await createStore({ root }).create({ title: 'Shared', body: 'Brief.', createdBy: 'test' });
  const api = registered(root);
  await Promise.all(
    ['alice', 'bob'].map((agentId) =>
      api
        .tool('svc_task_note', { agentId, sessionKey: `agent:${agentId}:main` })
        .execute('call-1', { taskId: task.id, text: `seen by ${agentId}` }),
    ),
  );
  const { body } = await createStore({ root }).get(task.id);
  assert.match(body, /^Brief\.\n\n## Notes\n\n- /);
  for (const agent of ['alice', 'bob']) assert.match(body, new RegExp(`Z ${agent}: seen by ${agent}\n`));
});

test('without an agent in the context the actor the model passed is kept', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const tool = registered(root).tool('svc_dispatch', {});
  const { details } = await tool.execute('call-1', { title: 'Anonymous', brief: 'x', actor: 'model-said' });
  const created = await readEvents(root, {
    taskId: (details as { result: { taskId: string } }).result.taskId,
    type: 'task.created',
  });
  assert.equal(
    created.map((e) => e.actor),
    ['model-said'],
  );
});

test('an svc error becomes a tool error with the code, the message and the hint', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const tool = registered(root).tool('svc_task_complete', { agentId: 'dev' });
  const err = await rejection(tool.execute('call-1', { taskId: 'TASK-2026-01-01-999' }));
  assert.is(err.code, 'not_found');
  assert.match(err.message, /^not_found: .*TASK-2026-01-01-999/);
  assert.match(err.message, /\nhint: /);
  const invalid = await rejection(
    registered(root).tool('svc_task_block', {}).execute('call-2', { taskId: 'x', bogus: 1 }),
  );
  assert.is(invalid.code, 'validation_error');
  assert.match(invalid.message, /unknown parameter "bogus"/);
});

test('with the daemon down every tool answers daemon unreachable, naming the socket and svc daemon start', async () => {
  const root = tempRoot();
  const api = registered(root);
  for (const { name } of TOOLS) {
    const err = await rejection(api.tool(name, { agentId: 'dev' }).execute('call-1', {}));
    assert.is(err.code, 'unavailable', name);
    assert.match(err.message, /daemon unreachable/);
    assert.ok(err.message.includes(toPaths(root).socket), err.message);
    assert.match(err.message, /svc daemon start/);
  }
});

test.run();
