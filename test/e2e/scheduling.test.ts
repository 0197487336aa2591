import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { completingAgent, lingeringAgent, quittingAgent, sleepingAgent, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, fixedClock, tempRoot, within } from '../helpers/root.js';

const FAST = { bootWindowMs: 200, pollIntervalMs: 150, spawnTimeoutMs: 1500, retryBackoffMs: [100] };

async function statusOf(root: string, id: string): Promise<string> {
  return (await createStore({ root }).get(id)).status;
}

async function dispatch(root: string, params: Record<string, unknown>): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { brief: 'Do it.', ...params },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

const agentPids: number[] = [];
const flow = suite('e2e.scheduling');
flow.after.each(async () => {
  for (const pid of agentPids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await closeDaemons();
  cleanRoots();
});

flow(
  'three failed runs deadletter the task with the event and the console alert; resurrect dispatches it again',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: quittingAgent() }], aof: { daemon: FAST } });
    let stderr = '';
    await startTestDaemon(root, { tools: TOOLS, env: process.env, stderr: (text) => void (stderr += text) });
    const id = await dispatch(root, { title: 'Doomed', agent: 'dev' });
    await within(20_000, async () => (await statusOf(root, id)) === 'deadletter', 'deadletter');
    const dead = await within(
      3000,
      async () => (await readEvents(root, { taskId: id, type: 'task.deadletter' }))[0],
      'task.deadletter',
    );
    assert.equal(dead.payload, {
      reason: 'max_dispatch_failures',
      failureCount: 3,
      lastFailureReason: 'ended_without_completion',
      exitCode: 1,
    });
    assert.match(stderr, new RegExp(`\\[AOF\\] DEADLETTER: ${id} "Doomed"`));
    assert.match(stderr, new RegExp(`svc task resurrect ${id}`));
    const out = await svc(root, 'task', 'resurrect', id);
    assert.is(out.stdout.trim(), `${id} deadletter -> ready`);
    await within(
      10_000,
      async () => (await readEvents(root, { taskId: id, type: 'task.dispatched' })).length === 4,
      'dispatched again after resurrect',
    );
  },
);

flow('an expired lease goes back to ready (lease.expired) and the task is dispatched under a new session', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: sleepingAgent(1200) }],
    aof: { daemon: { ...FAST, defaultLeaseTtlMs: 400 } },
  });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const id = await dispatch(root, { title: 'Slow', agent: 'dev' });
  const expired = await within(
    10_000,
    async () => (await readEvents(root, { taskId: id, type: 'lease.expired' }))[0],
    'lease.expired',
  );
  const sessions = await within(
    10_000,
    async () => {
      const found = (await readEvents(root, { taskId: id, type: 'task.dispatched' })).map((e) => e.payload.sessionId);
      return found.length >= 2 && found;
    },
    'second dispatch',
  );
  assert.is(expired.payload.sessionId, sessions[0]);
  assert.is.not(sessions[0], sessions[1]);
});

flow('heartbeats by the lease holder keep a short lease alive until the task is done', async () => {
  // The daemon's clock is the test's: each beat comes 1 s after the last, within the 1.2 s lease,
  // however slow the machine is.
  const root = tempRoot();
  const clock = fixedClock();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: lingeringAgent() }],
    aof: { daemon: { ...FAST, defaultLeaseTtlMs: 1200, heartbeatTtlMs: 1200 } },
  });
  await startTestDaemon(root, { tools: TOOLS, env: process.env, clock });
  const id = await dispatch(root, { title: 'Long', agent: 'dev' });
  const sessionId = (
    await within(
      10_000,
      async () => (await readEvents(root, { taskId: id, type: 'task.dispatched' }))[0],
      'task.dispatched',
    )
  ).payload.sessionId;
  const pidFile = `${root}/agent-${id}.pid`;
  agentPids.push(
    await within(20_000, () => existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8')), 'the agent to start'),
  );
  const tool = async (name: string, params: Record<string, unknown>) => {
    const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
      tool: name,
      params: { taskId: id, sessionId, actor: 'dev', ...params },
    });
    assert.is(status, 200, JSON.stringify(body));
  };
  for (let beat = 1; beat <= 5; beat++) {
    clock.advance(1000);
    await tool('svc_task_update', {});
    const { body } = await call(root, 'POST', '/v1/scheduler/tick');
    assert.equal(
      (body as { actions: { taskId: string }[] }).actions.filter((a) => a.taskId === id),
      [],
      `beat ${beat}: nothing to do, the lease is alive`,
    );
    assert.is(
      (await createStore({ root }).get(id)).task.lease?.expiresAt,
      new Date(clock().getTime() + 1200).toISOString(),
    );
  }
  await tool('svc_task_complete', { summary: 'finished after heartbeats' });
  assert.is(await statusOf(root, id), 'done');
  const events = await within(
    5000,
    async () => {
      const found = await readEvents(root, { taskId: id });
      return found.some((e) => e.type === 'task.transitioned' && e.payload.to === 'done') && found;
    },
    'the completion logged',
  );
  assert.is(events.filter((e) => e.type === 'task.dispatched').length, 1, 'one dispatch: the lease never expired');
  assert.is(events.filter((e) => e.type === 'lease.expired').length, 0);
});

flow('concurrency limits are never exceeded: global maxConcurrentDispatches and per-agent maxConcurrent', async () => {
  const root = tempRoot();
  const agent = (id: string) => ({ id, name: id, command: completingAgent(), maxConcurrent: 2 });
  writeOrg(root, {
    agents: [agent('a'), agent('b')],
    teams: [{ id: 't', name: 'T', members: ['a', 'b'] }],
    aof: { daemon: { ...FAST, maxConcurrentDispatches: 3 } },
  });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) ids.push(await dispatch(root, { title: `T${i}`, team: 't' }));
  let peak = 0;
  const perAgentPeak = new Map<string, number>();
  await within(
    60_000,
    async () => {
      const inProgress = (await createStore({ root }).list(['in-progress'])).tasks;
      peak = Math.max(peak, inProgress.length);
      const byAgent = new Map<string, number>();
      for (const t of inProgress) byAgent.set(t.task.lease!.agent, (byAgent.get(t.task.lease!.agent) ?? 0) + 1);
      for (const [a, n] of byAgent) perAgentPeak.set(a, Math.max(perAgentPeak.get(a) ?? 0, n));
      return readdirSync(`${root}/tasks/done`).filter((n) => n.endsWith('.md')).length === 8;
    },
    'all done',
  );
  assert.ok(peak <= 3, `peak ${peak} in progress`);
  assert.ok(peak >= 2, 'work ran in parallel');
  assert.ok(
    [...perAgentPeak.values()].every((n) => n <= 2),
    JSON.stringify([...perAgentPeak]),
  );
});

flow('a task waiting on another is dispatched once its blocker is done; higher priority goes first', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }], aof: { daemon: FAST } });
  const store = createStore({ root });
  const ready = async (title: string, priority: 'low' | 'high' | 'critical', dependsOn: string[] = []) =>
    (await store.create({ title, priority, dependsOn, routing: { agent: 'dev' }, status: 'ready', createdBy: 'test' }))
      .task.id;
  const first = await ready('Blocker', 'low');
  const waiting = await ready('Waits', 'critical', [first]);
  const urgent = await ready('Urgent', 'high');
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await within(30_000, async () => (await statusOf(root, waiting)) === 'done', 'dependent done');
  const order = (await readEvents(root, { type: 'task.dispatched' })).map((e) => e.taskId);
  assert.equal(order, [urgent, first, waiting]);
  const log = readFileSync(`${root}/data/logs/daemon.log`, 'utf8');
  assert.not.match(log, /tick failed/);
});

flow.run();
