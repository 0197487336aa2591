import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlugin } from '../../lib/plugin/index.js';
import { readEvents } from '../../lib/store/events/log.js';
import { TOOLS } from '../../lib/tools/index.js';
import { writeOrg } from '../helpers/agents.js';
import { call, gate, startTestDaemon } from '../helpers/daemon.js';
import { tempRoot, within } from '../helpers/root.js';
import { completeThroughTool, fakeApi, type RunScript } from './fake-api.js';
import { FAST, NAMES, started, startPlugin, dispatch, statusOf, pluginsOf, cleanUp } from './service-fixture.js';

const test = suite('plugin.service');
test.after.each(cleanUp);

test('the service fulfils a spawn in a gateway session; the agent completes through the tool and the result is posted', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
  const daemon = await startTestDaemon(root, { tools: TOOLS });
  const { api } = await startPlugin(root);
  await within(
    3000,
    async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin',
    'plugin mode',
  );
  const id = await dispatch(root, 'Through the plugin', 'gw');
  await within(10_000, async () => (await statusOf(root, id)) === 'done', 'done');
  const [run] = api.runs;
  assert.is(run!.sessionKey, `agent:gw:svc-${id}`);
  assert.is(run!.deliver, false);
  assert.equal(run!.toolsAlsoAllow, NAMES);
  assert.match(run!.idempotencyKey!, /^svc-/);
  assert.match(run!.message, new RegExp(`svc_task_complete\\(\\{ taskId: "${id}"`));
  await within(
    5000,
    () => / spawn\.result \{.*"ok":true/.test(readFileSync(daemon.paths.daemonLog, 'utf8')),
    'the result posted',
  );
  const dispatched = await readEvents(root, { taskId: id, type: 'task.dispatched' });
  assert.equal(
    dispatched.map((e) => e.payload.adapter),
    ['plugin'],
  );
  const completed = await readEvents(root, { taskId: id, type: 'task.completed' });
  assert.equal(
    completed.map((e) => e.actor),
    ['gw'],
  );
  api.fire('agent_end', { success: true }, { agentId: 'gw', sessionKey: run!.sessionKey, runId: run!.idempotencyKey });
  const ended = await within(
    5000,
    async () => (await readEvents(root)).find((e) => e.type === 'plugin.agent-end'),
    'agent_end forwarded',
  );
  assert.is(
    ended.payload.spawnId,
    dispatched[0]!.payload.sessionId,
    'the hook names the spawn of the run the service started',
  );
});

test('a hook fired through another registration of the same entry still names the spawn of the run', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
  await startTestDaemon(root, { tools: TOOLS });
  const entry = createPlugin({ environment: { env: {} }, retryMinMs: 20, waitSliceMs: 200 });
  const config = { dataDir: root, dryRun: false };
  const serving = fakeApi({ config });
  const hooking = fakeApi({ config, mode: 'full' });
  entry.register(serving);
  entry.register(hooking);
  await serving.services[0]!.start({});
  started.push(serving.services[0]!);
  const id = await dispatch(root, 'Two registrations', 'gw');
  await within(10_000, async () => (await statusOf(root, id)) === 'done', 'done');
  const [run] = serving.runs;
  hooking.fire('agent_end', { success: true }, { sessionKey: run!.sessionKey, runId: run!.idempotencyKey });
  const ended = await within(
    5000,
    async () => (await readEvents(root)).find((e) => e.type === 'plugin.agent-end'),
    'agent_end forwarded',
  );
  const dispatched = await readEvents(root, { taskId: id, type: 'task.dispatched' });
  assert.is(ended.payload.spawnId, dispatched[0]!.payload.sessionId);
});

test('several spawns run at once', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [
      { id: 'a1', name: 'One' },
      { id: 'a2', name: 'Two' },
    ],
    aof: { daemon: FAST },
  });
  await startTestDaemon(root, { tools: TOOLS });
  const door = gate();
  const { api } = await startPlugin(root, {
    script: async (params, fake) => {
      await door.promise;
      return completeThroughTool(params, fake);
    },
  });
  await within(3000, async () => (await pluginsOf(root)).includes('svc'), 'attached');
  const ids = [await dispatch(root, 'First', 'a1'), await dispatch(root, 'Second', 'a2')];
  await within(10_000, () => api.runs.length === 2, 'both runs started before either ended');
  door.open();
  await within(
    10_000,
    async () => (await Promise.all(ids.map((id) => statusOf(root, id)))).every((s) => s === 'done'),
    'both done',
  );
});

test('at maxConcurrentDispatches the service takes no more spawns until a run ends', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [
      { id: 'a1', name: 'One' },
      { id: 'a2', name: 'Two' },
    ],
    aof: { daemon: FAST },
  });
  const daemon = await startTestDaemon(root, { tools: TOOLS });
  const door = gate();
  let active = 0;
  let most = 0;
  const script: RunScript = async (params, fake) => {
    most = Math.max(most, ++active);
    await door.promise;
    const result = await completeThroughTool(params, fake);
    active--;
    return result;
  };
  const { api } = await startPlugin(root, { script, config: { maxConcurrentDispatches: 1 } });
  await within(3000, async () => (await pluginsOf(root)).includes('svc'), 'attached');
  const first = await dispatch(root, 'First', 'a1');
  await within(10_000, () => api.runs.length === 1, 'the first run started');
  const second = await dispatch(root, 'Second', 'a2');
  await within(
    10_000,
    () => readFileSync(daemon.paths.daemonLog, 'utf8').includes(`${second} held in ready, reason no-plugin-attached`),
    'the second waits for the plugin',
  );
  assert.is(api.runs.length, 1);
  door.open();
  await within(
    10_000,
    async () => (await statusOf(root, first)) === 'done' && (await statusOf(root, second)) === 'done',
    'both done',
  );
  assert.is(most, 1);
});

test('a task held no-plugin-attached is dispatched as soon as the plugin is back, not at the next poll', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'gw', name: 'Gateway agent' }],
    aof: { daemon: { ...FAST, pollIntervalMs: 60_000 } },
  });
  const daemon = await startTestDaemon(root, { tools: TOOLS });
  const first = await startPlugin(root);
  await within(
    3000,
    async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin',
    'plugin mode',
  );
  await first.service.stop?.({});
  await within(3000, async () => (await pluginsOf(root)).length === 0, 'the plugin detached');
  const id = await dispatch(root, 'Waits for the plugin', 'gw');
  await within(
    3000,
    () => readFileSync(daemon.paths.daemonLog, 'utf8').includes(`${id} held in ready, reason no-plugin-attached`),
    'held',
  );
  const back = Date.now();
  await startPlugin(root);
  const dispatched = await within(
    20_000,
    async () => (await readEvents(root, { taskId: id, type: 'task.dispatched' }))[0],
    'dispatched before the next poll (60 s)',
  );
  assert.is(dispatched.payload.adapter, 'plugin');
  const after = Date.parse(dispatched.timestamp) - back;
  assert.ok(after < 5000, `dispatched ${after} ms after the plugin's return`);
});

test.run();
