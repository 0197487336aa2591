import { existsSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/pid.js';
import { readEvents } from '../../lib/store/events.js';
import { createStore } from '../../lib/store/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { lingeringAgent, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, healthy, runSvc, startChild, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// Local command agents run detached: a daemon stop neither waits for them nor ends them (their
// leases survive it), and a cancel of their task ends them, even after a restart.
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300 };
const agents: number[] = [];

async function dispatch(root: string): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: 'Long work', brief: 'Take your time.', agent: 'dev' } });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

/** The pid the agent of `id` wrote once it started. */
async function agentPid(root: string, id: string): Promise<number> {
  const file = `${root}/agent-${id}.pid`;
  const pid = await within(20_000, () => existsSync(file) && Number(readFileSync(file, 'utf8')), `the agent of ${id} to start`);
  agents.push(pid);
  return pid;
}

async function sessionOf(root: string, id: string): Promise<string> {
  const dispatched = await within(5000, async () => (await readEvents(root, { taskId: id, type: 'task.dispatched' }))[0], 'task.dispatched');
  return String(dispatched.payload.sessionId);
}

const local = suite('e2e.local agents');
local.after.each(async () => {
  for (const pid of agents.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await closeDaemons();
  cleanRoots();
});

local('svc daemon stop does not wait for a running agent; the agent and its lease survive the stop', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: lingeringAgent() }], aof: { daemon: FAST } });
  const daemon = startChild(root);
  await healthy(root);
  const id = await dispatch(root);
  const pid = await agentPid(root, id);
  const session = await sessionOf(root, id);
  const stop = await runSvc({ SVC_HOME: root, HOME: root }, 'daemon', 'stop');
  assert.is(stop.code, 0, stop.stderr);
  assert.match(stop.stdout, /^svc daemon stopped \(pid \d+, SIGTERM\)\.$/m);
  assert.equal(await daemon.exited, { code: 0, signal: null });
  assert.ok(isAlive(pid), 'the agent still runs');
  assert.not.ok(existsSync(`${root}/agent-${id}.term`), 'the agent got no SIGTERM');
  const task = (await createStore({ root }).get(id)).task;
  assert.is(task.status, 'in-progress');
  assert.is(task.lease?.sessionId, session, 'its lease is intact');
});

local('svc_task_cancel of a task a local agent runs sends the agent SIGTERM', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: lingeringAgent() }], aof: { daemon: FAST } });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const id = await dispatch(root);
  const pid = await agentPid(root, id);
  const sessionId = await sessionOf(root, id);
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_task_cancel', params: { taskId: id, sessionId, reason: 'not needed' } });
  assert.is(status, 200, JSON.stringify(body));
  await within(10_000, () => !isAlive(pid), 'the agent to end');
  assert.is(readFileSync(`${root}/agent-${id}.term`, 'utf8'), 'SIGTERM');
  assert.is((await createStore({ root }).get(id)).status, 'cancelled');
});

local('an agent that ignores SIGTERM is killed after agentStopGraceMs', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: lingeringAgent(true) }], aof: { daemon: FAST } });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const id = await dispatch(root);
  const pid = await agentPid(root, id);
  const sessionId = await sessionOf(root, id);
  await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_task_cancel', params: { taskId: id, sessionId } });
  await within(10_000, () => existsSync(`${root}/agent-${id}.term`), 'the SIGTERM');
  await within(10_000, () => !isAlive(pid), 'the SIGKILL');
  assert.match(readFileSync(`${root}/data/logs/daemon.log`, 'utf8'), `${id}: ending its local agent (session ${sessionId}, pid ${pid}) since it was cancelled: SIGTERM sent, SIGKILL after 300 ms`);
});

local('a cancel by the command line after a daemon restart still ends the agent the earlier daemon started', async () => {
  const root = tempRoot();
  const env = { SVC_HOME: root, HOME: root };
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: lingeringAgent() }], aof: { daemon: FAST } });
  startChild(root);
  await healthy(root);
  const id = await dispatch(root);
  const pid = await agentPid(root, id);
  const session = await sessionOf(root, id);
  assert.is((await runSvc(env, 'daemon', 'stop')).code, 0);
  assert.ok(isAlive(pid));
  startChild(root);
  await healthy(root);
  const cancel = await runSvc(env, 'task', 'cancel', id, '--session', session);
  assert.is(cancel.code, 0, cancel.stderr);
  await within(10_000, () => !isAlive(pid), 'the agent to end');
  assert.is(readFileSync(`${root}/agent-${id}.term`, 'utf8'), 'SIGTERM');
});

local.run();
