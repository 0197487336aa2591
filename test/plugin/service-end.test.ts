import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { TOOLS } from '../../lib/tools/index.js';
import { writeOrg } from '../helpers/agents.js';
import { call, gate, healthy, startChild, startTestDaemon } from '../helpers/daemon.js';
import { tempRoot, within } from '../helpers/root.js';
import {
  FAST,
  started,
  startPlugin,
  dispatch,
  statusOf,
  pluginsOf,
  handles,
  extra,
  cleanUp,
} from './service-fixture.js';

const test = suite('plugin.service run ends');
test.after.each(cleanUp);

test('a run that fails is posted as a failure and the task goes back to ready with the reason', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
  await startTestDaemon(root, { tools: TOOLS });
  await startPlugin(root, { script: async () => ({ status: 'error', error: 'the model gave up' }) });
  await within(3000, async () => (await pluginsOf(root)).includes('svc'), 'attached');
  const id = await dispatch(root, 'Fails', 'gw');
  const failed = await within(
    10_000,
    async () => (await readEvents(root, { taskId: id, type: 'dispatch.failed' }))[0],
    'dispatch.failed',
  );
  assert.equal([failed.payload.reason, failed.payload.failureCount], ['run_failed', 1]);
});

test('a wait that fails in transport is retried: the run is still followed to its end', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
  const daemon = await startTestDaemon(root, { tools: TOOLS });
  const { api } = await startPlugin(root);
  const real = api.runtime.subagent.waitForRun;
  let failures = 0;
  api.runtime.subagent.waitForRun = async (params) =>
    failures++ === 0 ? { status: 'error', error: 'socket hang up', retryableTransportError: true } : real(params);
  await within(3000, async () => (await pluginsOf(root)).includes('svc'), 'attached');
  const id = await dispatch(root, 'Flaky wait', 'gw');
  await within(10_000, async () => (await statusOf(root, id)) === 'done', 'done');
  await within(
    5000,
    () => / spawn\.result \{.*"ok":true/.test(readFileSync(daemon.paths.daemonLog, 'utf8')),
    'the result posted ok',
  );
  assert.ok(failures >= 2);
});

test('a gateway that cannot start the run is posted as spawn_failed', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
  await startTestDaemon(root, { tools: TOOLS });
  const { api } = await startPlugin(root);
  api.runtime.subagent.run = async () => {
    throw new Error('Unknown agent "gw"');
  };
  await within(3000, async () => (await pluginsOf(root)).includes('svc'), 'attached');
  const id = await dispatch(root, 'Cannot start', 'gw');
  const failed = await within(
    10_000,
    async () => (await readEvents(root, { taskId: id, type: 'dispatch.failed' }))[0],
    'dispatch.failed',
  );
  assert.is(failed.payload.reason, 'spawn_failed');
});

test('a lease that expires ends the gateway run (its session is deleted) before the task runs again, never two runs at once', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'gw', name: 'Gateway agent' }],
    aof: { daemon: { ...FAST, defaultLeaseTtlMs: 1000 } },
  });
  await startTestDaemon(root, { tools: TOOLS });
  let most = 0;
  const { api } = await startPlugin(root, {
    script: () => {
      most = Math.max(most, api.active.size);
      return new Promise(() => undefined);
    },
  });
  await within(
    3000,
    async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin',
    'plugin mode',
  );
  const id = await dispatch(root, 'Never ends on its own', 'gw');
  await within(15_000, () => api.runs.length >= 3, 'two expiries and a third run');
  assert.is(most, 1, 'one run at a time');
  assert.equal(api.deleted.slice(0, 2), [`agent:gw:svc-${id}`, `agent:gw:svc-${id}`]);
  const results = (await readEvents(root, { taskId: id, type: 'dispatch.failed' })).length;
  assert.is(results, 0, 'a stopped run is not a failed dispatch');
  assert.ok(
    api.logs.some((line) => line.includes(`the daemon ended the run of ${id}`)),
    api.logs.join('\n'),
  );
});

test("an operator's cancel of a task a gateway run holds ends the run", async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
  await startTestDaemon(root, { tools: TOOLS });
  const { api } = await startPlugin(root, { script: () => new Promise(() => undefined) });
  await within(
    3000,
    async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin',
    'plugin mode',
  );
  const id = await dispatch(root, 'Runaway', 'gw');
  await within(10_000, () => api.active.size === 1, 'the run');
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_task_cancel',
    params: { taskId: id, actor: 'operator' },
  });
  assert.is(status, 200, JSON.stringify(body));
  await within(10_000, () => api.active.size === 0, 'the run aborted');
  assert.equal(api.deleted, [`agent:gw:svc-${id}`]);
  assert.is(await statusOf(root, id), 'cancelled');
});

test('stop aborts the long-poll, leaves a running session alone and leaves no handle behind', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
  const child = startChild(root);
  await healthy(root);
  await within(5000, () => !handles().includes('SimpleShutdownWrap'), 'the health check closed');
  const before = handles();
  const door = gate();
  const { api, service } = await startPlugin(root, {
    script: async () => {
      await door.promise;
      return { status: 'ok' };
    },
  });
  await within(5000, async () => (await pluginsOf(root)).includes('svc'), 'attached');
  const id = await dispatch(root, 'Long run', 'gw');
  await within(10_000, () => api.runs.length === 1, 'the run started');
  assert.ok(extra(before, handles()).includes('PipeWrap'), 'the long-poll holds a socket');
  await service.stop?.({});
  started.splice(started.indexOf(service), 1);
  await within(5000, () => extra(before, handles()).length === 0, 'no handle left');
  await within(5000, async () => (await pluginsOf(root)).length === 0, 'detached');
  assert.is(await statusOf(root, id), 'in-progress', 'the session still owns its task');
  assert.not.match(readFileSync(`${root}/data/logs/daemon.log`, 'utf8'), /spawn\.result/);
  door.open();
  await child.kill();
});

test('a daemon that is down is retried with backoff and logged once, and the service attaches once it is up', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
  const { api } = await startPlugin(root);
  await within(5000, () => api.logs.filter((line) => line.startsWith('warn')).length === 1, 'one warning');
  const firstWarning = api.logs.find((line) => line.startsWith('warn'))!;
  assert.match(firstWarning, /daemon unreachable/);
  assert.match(firstWarning, /svc daemon start/);
  await startTestDaemon(root, { tools: TOOLS });
  await within(5000, async () => (await pluginsOf(root)).includes('svc'), 'attached');
  await within(5000, () => api.logs.some((line) => /answers again/.test(line)), 'back logged');
  assert.is(api.logs.filter((line) => line.startsWith('warn')).length, 1, api.logs.join('\n'));
});

test('in a dry run the service takes no spawns and says why', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
  await startTestDaemon(root, { tools: TOOLS });
  const { api } = await startPlugin(root, { config: { dryRun: true } });
  assert.ok(
    api.logs.some((line) => /dry run: the plugin takes no spawns/.test(line)),
    api.logs.join('\n'),
  );
  await within(
    3000,
    async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'standalone',
    'no plugin attached at boot',
  );
  assert.equal(await pluginsOf(root), []);
});

test.run();
