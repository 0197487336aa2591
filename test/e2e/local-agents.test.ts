import { existsSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { lingeringAgent, SVC_BIN, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, healthy, runSvc, startChild, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

// Local command agents run detached: a daemon stop neither waits for them nor ends them (their
// leases survive it), and a cancel of their task ends them, even after a restart.
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300 };
const agents: number[] = [];

async function dispatch(root: string): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title: 'Long work', brief: 'Take your time.', agent: 'dev' },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

/** The pid the agent of `id` wrote once it started. */
async function agentPid(root: string, id: string): Promise<number> {
  const file = `${root}/agent-${id}.pid`;
  const pid = await within(
    20_000,
    () => existsSync(file) && Number(readFileSync(file, 'utf8')),
    `the agent of ${id} to start`,
  );
  agents.push(pid);
  return pid;
}

async function sessionOf(root: string, id: string): Promise<string> {
  const dispatched = await within(
    5000,
    async () => (await readEvents(root, { taskId: id, type: 'task.dispatched' }))[0],
    'task.dispatched',
  );
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
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_task_cancel',
    params: { taskId: id, sessionId, reason: 'not needed' },
  });
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
  assert.match(
    readFileSync(`${root}/data/logs/daemon.log`, 'utf8'),
    `${id}: ending its local agent (session ${sessionId}, pid ${pid}) since it was cancelled: SIGTERM sent, SIGKILL after 300 ms`,
  );
});

local(
  'a cancel by the command line after a daemon restart still ends the agent the earlier daemon started',
  async () => {
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
  },
);

local(
  'an agent that completes and exits leaving a setsid child behind: the run lasts until the child is ended, at the next poll',
  async () => {
    const root = tempRoot();
    // The agent starts a child in a session of its own (out of its process group), writes its pid, completes, and exits.
    const script = `
    const { spawn, execFileSync } = require('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore', detached: true });
    child.unref();
    require('node:fs').writeFileSync(process.env.SVC_HOME + '/escaped.pid', String(child.pid));
    const params = { taskId: process.env.SVC_TASK_ID, sessionId: process.env.SVC_SESSION_ID, summary: 'done', actor: process.env.SVC_AGENT };
    execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify(params)], { stdio: 'inherit' });
  `;
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: [process.execPath, '-e', script] }],
      aof: { daemon: FAST },
    });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const id = await dispatch(root);
    const escaped = await within(
      20_000,
      () => existsSync(`${root}/escaped.pid`) && Number(readFileSync(`${root}/escaped.pid`, 'utf8')),
      'the escaped child',
    );
    agents.push(escaped);
    await within(20_000, async () => (await createStore({ root }).get(id)).status === 'done', 'done');
    await within(10_000, () => !isAlive(escaped), 'the escaped child to be ended');
    await logShows(
      `${root}/data/logs/daemon.log`,
      new RegExp(
        `${id}: ending its local agent \\(session \\S+, pid \\d+\\) since its agent exited, leaving processes behind, and its task is done`,
      ),
    );
  },
);

local.run();
