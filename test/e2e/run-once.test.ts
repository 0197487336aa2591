import { existsSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { healthy, runSvc, startChild } from '../helpers/daemon.js';
import { tempRoot, within } from '../helpers/root.js';
import {
  agentPid,
  agentsOf,
  dispatch,
  endRuns,
  FAST,
  sessionOf,
  sleepingAgent,
  startDispatched,
} from './run-once-setup.js';

// One run per task while a daemon runs: a lease that expires, a hold until the old run ends, an operator's cancel.
const once = suite('e2e.one run per task');
once.after.each(endRuns);

once(
  'leases of a sleeping local agent expire three times: sampled every 100 ms, never two agents of the task run at once',
  async () => {
    const root = tempRoot();
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: sleepingAgent(600), maxConcurrent: 1 }],
      aof: { daemon: { ...FAST, defaultLeaseTtlMs: 1500 } },
    });
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
    assert.equal(
      terms.slice(0, 3),
      expired.slice(0, 3).map((e) => String(e.payload.sessionId)),
      'each expired run got SIGTERM',
    );
    const task = (await createStore({ root }).get(id)).task;
    assert.is(task.metadata.dispatchFailures, undefined, 'an expiry is not a failed dispatch');
  },
);

once('a task waiting for its previous run to end shows the hold previous-run-ending in svc scheduler run', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: sleepingAgent(60_000) }],
    aof: { daemon: { ...FAST, agentStopGraceMs: 60_000 } },
  });
  startChild(root);
  await healthy(root);
  const id = await dispatch(root);
  const pid = await agentPid(root, id);
  const session = await sessionOf(root, id);
  const moved = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'status', id, 'ready', '--session', session);
  assert.is(moved.code, 0, moved.stderr);
  const plan = await within(
    10_000,
    async () => {
      const out = await runSvc({ SVC_HOME: root, HOME: root }, 'scheduler', 'run');
      return out.stdout.includes('previous-run-ending') && out.stdout;
    },
    'the hold',
  );
  assert.match(plan, `local agent of session ${session} (pid ${pid}) got SIGTERM`);
  assert.ok(isAlive(pid), 'the old run lingers after SIGTERM');
  assert.not.ok(existsSync(`${root}/agent-${id}.2.pid`), 'and no second run started');
  process.kill(pid, 'SIGKILL');
  await agentPid(root, id, 2);
});

once(
  "an operator's cancel of a task an agent holds succeeds, ends the run, and the holder's next call is stale_session",
  async () => {
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
    const late = await runSvc(
      env,
      'tool',
      'svc_task_update',
      JSON.stringify({ taskId: id, sessionId: session, actor: 'dev', body: 'still here' }),
    );
    assert.is(late.code, 1);
    assert.match(late.stderr, `Session ${session} no longer holds ${id}`);
  },
);

once.run();
