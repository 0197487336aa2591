import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, healthy, runSvc, startChild } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

// One run per task, always (docs/scheduler.md): a task is dispatched again only once every
// earlier run of it is gone, whatever ended the earlier run's lease.
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 2000 };
const started: number[] = [];

/**
 * argv of an agent that writes its pid to `<SVC_HOME>/agent-<task id>.<n>.pid` (n counts its runs),
 * then sleeps without heartbeats. On SIGTERM it appends to `...term` and exits after `lingerMs`, so
 * the old run is still alive for a while after its lease is gone.
 */
function sleepingAgent(lingerMs: number): string[] {
  const script = `
    const fs = require('node:fs');
    const base = process.env.SVC_HOME + '/agent-' + process.env.SVC_TASK_ID;
    let n = 1;
    while (fs.existsSync(base + '.' + n + '.pid')) n++;
    fs.writeFileSync(base + '.' + n + '.pid', String(process.pid));
    process.on('SIGTERM', () => { fs.appendFileSync(base + '.term', process.env.SVC_SESSION_ID + '\\n'); setTimeout(() => process.exit(143), ${lingerMs}); });
    setTimeout(() => {}, 120000);
  `;
  return [process.execPath, '-e', script];
}

/** Pids of the live processes whose environment names task `id` of `root` (`SVC_TASK_ID`, `SVC_HOME`): other roots on this machine reuse ids. */
function agentsOf(root: string, id: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (/ [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8').slice(0, 80).replace(/^.*\) /s, ' '))) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      if (env.includes(`SVC_TASK_ID=${id}`) && env.includes(`SVC_HOME=${root}`)) found.push(Number(pid));
    } catch {
      // gone, or another user's
    }
  }
  return found;
}

/** A daemon with one agent `dev` that sleeps until ended, and one task dispatched to it. */
async function startDispatched(root: string): Promise<{ first: ReturnType<typeof startChild>; id: string }> {
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: sleepingAgent(0) }], aof: { daemon: FAST } });
  const first = startChild(root);
  await healthy(root);
  return { first, id: await dispatch(root) };
}

async function dispatch(root: string): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: 'Long work', brief: 'Take your time.', agent: 'dev' } });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

async function agentPid(root: string, id: string, n = 1): Promise<number> {
  const file = `${root}/agent-${id}.${n}.pid`;
  const pid = await within(20_000, () => existsSync(file) && Number(readFileSync(file, 'utf8')), `run ${n} of ${id} to start`);
  started.push(pid);
  return pid;
}

async function sessionOf(root: string, id: string): Promise<string> {
  const events = await within(15_000, async () => (await readEvents(root, { taskId: id, type: 'task.dispatched' })).at(-1), 'task.dispatched');
  return String(events.payload.sessionId);
}

const once = suite('e2e.one run per task');
once.after.each(async () => {
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await closeDaemons();
  cleanRoots();
});

once('leases of a sleeping local agent expire three times: sampled every 100 ms, never two agents of the task run at once', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: sleepingAgent(600), maxConcurrent: 1 }], aof: { daemon: { ...FAST, defaultLeaseTtlMs: 1500 } } });
  startChild(root);
  await healthy(root);
  const id = await dispatch(root);
  let most = 0;
  const sampler = setInterval(() => (most = Math.max(most, agentsOf(root, id).length)), 100);
  try {
    await agentPid(root, id, 4); // three expiries, then the fourth run
  } finally {
    clearInterval(sampler);
  }
  assert.is(most, 1, `at most one agent of ${id} at a time, saw ${most}`);
  const expired = await readEvents(root, { taskId: id, type: 'lease.expired' });
  assert.ok(expired.length >= 3, `three expiries, got ${expired.length}`);
  const terms = readFileSync(`${root}/agent-${id}.term`, 'utf8').trim().split('\n');
  assert.equal(terms.slice(0, 3), expired.slice(0, 3).map((e) => String(e.payload.sessionId)), 'each expired run got SIGTERM');
  const task = (await createStore({ root }).get(id)).task;
  assert.is(task.metadata.dispatchFailures, undefined, 'an expiry is not a failed dispatch');
});

once('a task waiting for its previous run to end shows the hold previous-run-ending in svc scheduler run', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: sleepingAgent(60_000) }], aof: { daemon: { ...FAST, agentStopGraceMs: 60_000 } } });
  startChild(root);
  await healthy(root);
  const id = await dispatch(root);
  const pid = await agentPid(root, id);
  const session = await sessionOf(root, id);
  const moved = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'status', id, 'ready', '--session', session);
  assert.is(moved.code, 0, moved.stderr);
  const plan = await within(10_000, async () => {
    const out = await runSvc({ SVC_HOME: root, HOME: root }, 'scheduler', 'run');
    return out.stdout.includes('previous-run-ending') && out.stdout;
  }, 'the hold');
  assert.match(plan, `local agent of session ${session} (pid ${pid}) got SIGTERM`);
  assert.ok(isAlive(pid), 'the old run lingers after SIGTERM');
  assert.not.ok(existsSync(`${root}/agent-${id}.2.pid`), 'and no second run started');
  process.kill(pid, 'SIGKILL');
  await agentPid(root, id, 2);
});

once('a task cancelled while the daemon is stopped has no agent left after the next start', async () => {
  const root = tempRoot();
  const env = { SVC_HOME: root, HOME: root };
  const { id } = await startDispatched(root);
  const pid = await agentPid(root, id);
  assert.is((await runSvc(env, 'daemon', 'stop')).code, 0);
  assert.ok(isAlive(pid), 'the agent outlives the stop');
  const cancel = await runSvc(env, 'task', 'cancel', id, '--reason', 'not needed');
  assert.is(cancel.code, 0, cancel.stderr);
  startChild(root);
  await healthy(root);
  await within(10_000, () => agentsOf(root, id).length === 0, 'no agent of the task left');
  assert.is(readFileSync(`${root}/agent-${id}.term`, 'utf8').trim(), await sessionOf(root, id));
  await within(5000, () => readdirSync(`${root}/data/runs`).length === 0, 'its run record removed');
  assert.match(readFileSync(`${root}/data/logs/daemon.log`, 'utf8'), `its task is cancelled (found at start)`);
});

once('an operator\'s cancel of a task an agent holds succeeds, ends the run, and the holder\'s next call is stale_session', async () => {
  const root = tempRoot();
  const env = { SVC_HOME: root, HOME: root };
  const { id } = await startDispatched(root);
  const pid = await agentPid(root, id);
  const session = await sessionOf(root, id);
  const cancel = await runSvc(env, 'task', 'cancel', id, '--reason', 'runaway');
  assert.is(cancel.code, 0, cancel.stderr);
  assert.is(cancel.stdout.trim(), `${id} in-progress -> cancelled`);
  await within(10_000, () => !isAlive(pid), 'the agent to end');
  assert.is(readFileSync(`${root}/agent-${id}.term`, 'utf8').trim(), session);
  const late = await runSvc(env, 'tool', 'svc_task_update', JSON.stringify({ taskId: id, sessionId: session, actor: 'dev', body: 'still here' }));
  assert.is(late.code, 1);
  assert.match(late.stderr, `Session ${session} no longer holds ${id}`);
});

once('a run orphaned by a daemon crash is requeued at the next start without counting a failed dispatch', async () => {
  const root = tempRoot();
  const { first, id } = await startDispatched(root);
  const pid = await agentPid(root, id);
  await first.kill();
  process.kill(pid, 'SIGKILL'); // the agent dies too while no daemon runs
  await within(5000, () => !isAlive(pid), 'the agent gone');
  startChild(root);
  await healthy(root);
  await agentPid(root, id, 2);
  const task = (await createStore({ root }).get(id)).task;
  assert.is(task.metadata.dispatchFailures, undefined, 'not counted as a failed dispatch');
  assert.match(readFileSync(`${root}/data/logs/daemon.log`, 'utf8'), 'not counted as a failed dispatch');
});

once('a local run whose task another daemon sharing the tree dispatched again (another session) is ended at the next poll', async () => {
  const root = tempRoot();
  const { id } = await startDispatched(root);
  const pid = await agentPid(root, id);
  const session = await sessionOf(root, id);
  // What another host's daemon writes when it leases the task after this lease expired.
  await createStore({ root }).commit(id, (current) => ({ task: { ...current.task, lease: { ...current.task.lease!, sessionId: 'other-host-session', host: 'host-b', pid: 1 } }, body: current.body, status: 'in-progress' }), 'scheduler');
  await within(15_000, () => !isAlive(pid), 'the old run ended');
  assert.is(readFileSync(`${root}/agent-${id}.term`, 'utf8').trim(), session);
  await logShows(`${root}/data/logs/daemon.log`, /its task is in progress under session other-host-session/); // logged once the signals are sent
});

once('a run a crashed daemon left running is watched by the next daemon: when it ends, its task is requeued without counting a failure', async () => {
  const root = tempRoot();
  const { first, id } = await startDispatched(root);
  const pid = await agentPid(root, id);
  await first.kill();
  startChild(root);
  await healthy(root);
  await within(10_000, () => readFileSync(`${root}/data/logs/daemon.log`, 'utf8').includes(`${id}: its local agent (session`), 'the adoption logged');
  assert.is((await createStore({ root }).get(id)).status, 'in-progress', 'left to its agent while it runs');
  process.kill(pid, 'SIGKILL');
  await agentPid(root, id, 2);
  const task = (await createStore({ root }).get(id)).task;
  assert.is(task.metadata.dispatchFailures, undefined, 'not counted as a failed dispatch');
});

once.run();
