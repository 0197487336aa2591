import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { requestDaemon } from '../../lib/daemon/instance/client.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { startFakeGateway } from '../helpers/fake-gateway.js';
import { startFakePlugin } from '../helpers/fake-plugin.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

const FAST = { bootWindowMs: 300, pollIntervalMs: 200, spawnTimeoutMs: 1500 };
const stops: (() => Promise<void>)[] = [];

async function statusOf(root: string, id: string): Promise<string> {
  return (await createStore({ root }).get(id)).status;
}

async function dispatch(root: string, params: Record<string, unknown>): Promise<string> {
  const { body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { brief: 'Do it.', ...params },
  });
  return (body as { result: { taskId: string } }).result.taskId;
}

async function modeOf(root: string): Promise<string> {
  return ((await call(root, 'GET', '/status')).body as { mode: string }).mode;
}

const e2e = suite('e2e.adapters');
e2e.after.each(async () => {
  for (const stop of stops.splice(0)) await stop();
  await closeDaemons();
  cleanRoots();
});

e2e('command: a local agent process takes a task from ready to done', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }], aof: { daemon: FAST } });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const id = await dispatch(root, { title: 'Local', agent: 'dev' });
  await within(15_000, async () => (await statusOf(root, id)) === 'done', 'done');
  const dispatched = await readEvents(root, { taskId: id, type: 'task.dispatched' });
  assert.equal(
    dispatched.map((e) => e.payload.adapter),
    ['command'],
  );
});

e2e(
  'plugin: with a plugin attached in the boot window the daemon is plugin-expected and the plugin runs the task',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const plugin = startFakePlugin(root);
    stops.push(plugin.stop);
    await within(3000, async () => (await modeOf(root)) === 'plugin', 'plugin mode');
    const id = await dispatch(root, { title: 'Via plugin', agent: 'gw' });
    await within(10_000, async () => (await statusOf(root, id)) === 'done', 'done');
    assert.equal(
      plugin.spawns.map((s) => [s.taskId, s.agent]),
      [[id, 'gw']],
    );
    assert.match(plugin.spawns[0]!.prompt, new RegExp(`svc_task_complete\\(\\{ taskId: "${id}"`));
  },
);

e2e(
  'plugin gone: the task stays in ready with no-plugin-attached, no failure counted, and goes once it is back',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
    const daemon = await startTestDaemon(root, { tools: TOOLS, env: process.env, pluginGraceMs: 200 });
    const first = startFakePlugin(root);
    await within(3000, async () => (await modeOf(root)) === 'plugin', 'plugin mode');
    await first.stop();
    await within(
      5000,
      async () => ((await call(root, 'GET', '/status')).body as { plugins: unknown[] }).plugins.length === 0,
      'plugin detached',
    );
    const id = await dispatch(root, { title: 'Waits', agent: 'gw' });
    await within(
      5000,
      async () =>
        readFileSync(daemon.paths.daemonLog, 'utf8').includes(`${id} held in ready, reason no-plugin-attached`),
      'warning logged',
    );
    const holdLines = readFileSync(daemon.paths.daemonLog, 'utf8')
      .split('\n')
      .filter((line) => line.includes(`${id} held in ready, reason no-plugin-attached`));
    assert.equal(
      holdLines.map((line) => line.split(' ').slice(1, 3).join(' ')),
      ['warn scheduler'],
      'logged once, as a warning',
    );
    const held = await createStore({ root }).get(id);
    assert.is(held.status, 'ready');
    assert.is(held.task.metadata.dispatchFailures, undefined);
    const second = startFakePlugin(root);
    stops.push(second.stop);
    await within(10_000, async () => (await statusOf(root, id)) === 'done', 'done after the plugin returned');
  },
);

e2e(
  'plugin: an agent-end event for a run whose task is still in progress is a failed attempt (ended_without_completion)',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: FAST } });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const plugin = startFakePlugin(root, async (spawn, socket) => {
      await requestDaemon(
        socket,
        {
          method: 'POST',
          path: '/v1/event/agent-end',
          body: { sessionKey: `agent:${spawn.agent}:svc-${spawn.taskId}` },
        },
        { headers: { 'x-svc-plugin': 'svc' } },
      );
      await new Promise((resolve) => setTimeout(resolve, 60_000).unref()); // the run never reports a result
      return { ok: true };
    });
    stops.push(async () => void plugin.stop().catch(() => undefined));
    await within(3000, async () => (await modeOf(root)) === 'plugin', 'plugin mode');
    const id = await dispatch(root, { title: 'Gives up', agent: 'gw' });
    const failed = await within(
      10_000,
      async () => (await readEvents(root, { taskId: id, type: 'dispatch.failed' }))[0],
      'dispatch.failed',
    );
    assert.equal([failed.payload.reason, failed.payload.failureCount], ['ended_without_completion', 1]);
  },
);

e2e('standalone: no plugin in the boot window, spawns go to the gateway with the bearer token', async () => {
  const root = tempRoot();
  const gateway = await startFakeGateway();
  stops.push(gateway.close);
  writeOrg(root, {
    agents: [{ id: 'gw', name: 'Gateway agent' }],
    aof: { daemon: { ...FAST, gatewayUrl: gateway.url } },
  });
  await startTestDaemon(root, { tools: TOOLS, env: { SVC_GATEWAY_TOKEN: 'tok-123' } });
  await within(3000, async () => (await modeOf(root)) === 'standalone', 'standalone mode');
  const id = await dispatch(root, { title: 'Via gateway', agent: 'gw' });
  await within(5000, () => gateway.calls.length === 1, 'one gateway call');
  const [sent] = gateway.calls;
  assert.is(sent!.authorization, 'Bearer tok-123');
  assert.equal([sent!.body.tool, sent!.body.args?.agentId, sent!.body.args?.label], ['sessions_spawn', 'gw', id]);
  assert.is(await statusOf(root, id), 'in-progress');
  const lease = (await createStore({ root }).get(id)).task.lease!;
  const done = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_task_complete',
    params: { taskId: id, sessionId: lease.sessionId },
  });
  assert.is((done.body as { result: { status: string } }).result.status, 'done');
  assert.not.match(readFileSync(`${root}/data/logs/daemon.log`, 'utf8'), /tok-123/);
});

e2e.run();
