import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ForwardedHook } from '../../lib/plugin/api.js';
import { registerHooks, toEventPayload } from '../../lib/plugin/hooks.js';
import { createPlugin } from '../../lib/plugin/index.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { TOOLS } from '../../lib/tools/index.js';
import { writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { startFakePlugin } from '../helpers/fake-plugin.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { fakeApi } from './fake-api.js';

const EVENTS: Record<ForwardedHook, string> = {
  session_end: 'plugin.session-end',
  agent_end: 'plugin.agent-end',
  before_compaction: 'plugin.before-compaction',
  message_received: 'plugin.message-received',
};

const test = suite('plugin.hooks');
const stops: (() => Promise<void>)[] = [];
test.after.each(async () => {
  for (const stop of stops.splice(0)) await stop();
  await closeDaemons();
  cleanRoots();
});

test('each hook is forwarded to its /v1/event route and logged by the daemon with the session key', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const api = fakeApi({ config: { dataDir: root } });
  createPlugin({ environment: { env: {} } }).register(api);
  const ctx = { agentId: 'dev', sessionKey: 'agent:dev:main', sessionId: 'oc-session-1' };
  api.fire('session_end', { sessionId: 'oc-session-1', messageCount: 4, reason: 'reset' }, ctx);
  api.fire(
    'agent_end',
    { success: true, durationMs: 1200, messages: [{ role: 'user', content: 'secret transcript' }] },
    ctx,
  );
  api.fire('before_compaction', { messageCount: 40, tokenCount: 90000 }, ctx);
  api.fire('message_received', { from: 'alice', content: 'hello' }, { ...ctx, channelId: 'webchat' });
  const events = await within(
    5000,
    async () => {
      const all = (await readEvents(root)).filter((e) => e.type.startsWith('plugin.'));
      return all.length === 4 && all;
    },
    'four plugin events',
  );
  assert.equal(events.map((e) => e.type).sort(), Object.values(EVENTS).sort());
  assert.ok(events.every((e) => e.actor === 'svc' && e.payload.sessionKey === 'agent:dev:main'));
  const agentEnd = events.find((e) => e.type === 'plugin.agent-end')!;
  assert.equal(agentEnd.payload, {
    sessionKey: 'agent:dev:main',
    agentId: 'dev',
    sessionId: 'oc-session-1',
    success: true,
    durationMs: 1200,
  });
  const received = events.find((e) => e.type === 'plugin.message-received')!;
  assert.equal(
    [received.payload.from, received.payload.content, received.payload.channelId],
    ['alice', 'hello', 'webchat'],
  );
});

test('a hook handler returns at once and does not throw when the daemon is down; the failure is logged once', async () => {
  const root = tempRoot();
  const api = fakeApi({ config: { dataDir: root } });
  const settled: boolean[] = [];
  registerHooks(api, {
    socket: () => toPaths(root).socket,
    logger: api.logger,
    pluginId: 'svc',
    onForwarded: (_hook, { ok }) => settled.push(ok),
  });
  for (let i = 0; i < 3; i++)
    assert.is(api.fire('agent_end', { success: true }, { sessionKey: 'agent:dev:main' }), undefined);
  await within(5000, () => settled.length === 3, 'three forwards settled');
  assert.equal(settled, [false, false, false]);
  const warnings = api.logs.filter((line) => line.startsWith('warn'));
  assert.is(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /daemon unreachable/);
});

test('an agent_end naming a spawned session ends its run on the daemon, even with the key in lower case as the gateway sends it', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'gw', name: 'Gateway agent' }],
    aof: { daemon: { bootWindowMs: 300, pollIntervalMs: 200, spawnTimeoutMs: 3000 } },
  });
  await startTestDaemon(root, { tools: TOOLS });
  const api = fakeApi({ config: { dataDir: root } });
  createPlugin({ environment: { env: {} } }).register(api);
  const never = new Promise<{ ok: boolean }>(() => undefined);
  const plugin = startFakePlugin(root, async (spawn) => {
    const key = `agent:${spawn.agent}:svc-${spawn.taskId}`.toLowerCase();
    api.fire('agent_end', { success: true }, { agentId: spawn.agent, sessionKey: key });
    return never; // the run never reports a result: only the event can end it
  });
  stops.push(async () => void plugin.stop().catch(() => undefined));
  await within(
    3000,
    async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin',
    'plugin mode',
  );
  const { body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title: 'Ends by event', brief: 'x', agent: 'gw' },
  });
  const id = (body as { result: { taskId: string } }).result.taskId;
  const failed = await within(
    10_000,
    async () => (await readEvents(root, { taskId: id, type: 'dispatch.failed' }))[0],
    'dispatch.failed',
  );
  assert.is(failed.payload.reason, 'ended_without_completion');
});

test('a late agent_end of an earlier run in the same session (another spawnId) does not end the current run', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'gw', name: 'Gateway agent' }],
    aof: { daemon: { bootWindowMs: 300, pollIntervalMs: 200, spawnTimeoutMs: 3000 } },
  });
  const daemon = await startTestDaemon(root, { tools: TOOLS });
  const api = fakeApi({ config: { dataDir: root } });
  registerHooks(api, { socket: () => toPaths(root).socket, logger: api.logger, pluginId: 'svc' });
  const taken: string[] = [];
  const plugin = startFakePlugin(root, async (spawn) => {
    taken.push(spawn.id);
    return new Promise<{ ok: boolean }>(() => undefined);
  });
  stops.push(async () => void plugin.stop().catch(() => undefined));
  await within(
    3000,
    async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin',
    'plugin mode',
  );
  const { body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title: 'Two runs, one session', brief: 'x', agent: 'gw' },
  });
  const id = (body as { result: { taskId: string } }).result.taskId;
  await within(5000, () => taken.length === 1, 'the spawn taken');
  const sessionKey = `agent:gw:svc-${id}`.toLowerCase();
  api.fire('agent_end', { success: true }, { sessionKey, runId: 'svc-an-earlier-spawn' });
  const late = await within(
    5000,
    async () => (await readEvents(root)).find((e) => e.type === 'plugin.agent-end'),
    'the late event logged',
  );
  assert.is(late.payload.spawnId, 'an-earlier-spawn');
  assert.not.match(readFileSync(daemon.paths.daemonLog, 'utf8'), /spawn\.ended/);
  assert.is((await createStore({ root }).get(id)).status, 'in-progress');
  api.fire('agent_end', { success: true }, { sessionKey, runId: `svc-${taken[0]}` });
  const failed = await within(
    10_000,
    async () => (await readEvents(root, { taskId: id, type: 'dispatch.failed' }))[0],
    'dispatch.failed',
  );
  assert.is(failed.payload.reason, 'ended_without_completion');
});

const payload = suite('plugin.toEventPayload');

payload('names the spawn of a run the plugin started (run id svc-<spawn id>), and no spawn for other runs', () => {
  assert.is(toEventPayload('agent_end', { runId: 'svc-1b2c' }, {}).spawnId, '1b2c');
  assert.is(toEventPayload('agent_end', {}, { runId: 'svc-9f' }).spawnId, '9f');
  assert.not.ok('spawnId' in toEventPayload('agent_end', { runId: '3e1f-4a' }, {}));
  assert.not.ok('spawnId' in toEventPayload('agent_end', { runId: 'svc-' }, {}));
});

payload('puts the session key on top, keeps small fields and leaves transcripts out', () => {
  assert.equal(
    toEventPayload(
      'agent_end',
      { messages: [1, 2], success: false, error: 'boom', runId: 'r1' },
      { sessionKey: 'agent:a:svc-task-1', agentId: 'a' },
    ),
    {
      sessionKey: 'agent:a:svc-task-1',
      agentId: 'a',
      runId: 'r1',
      success: false,
      error: 'boom',
    },
  );
  assert.equal(toEventPayload('session_end', { sessionId: 's1', sessionKey: 'agent:a:x', messageCount: 3 }, {}), {
    sessionKey: 'agent:a:x',
    sessionId: 's1',
    messageCount: 3,
  });
  assert.is((toEventPayload('message_received', { content: 'x'.repeat(5000) }, {}).content as string).length, 2001);
});

test.run();
payload.run();
