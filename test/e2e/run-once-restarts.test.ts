import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { createStore } from '../../lib/store/commit/store.js';
import { healthy, runSvc, startChild } from '../helpers/daemon.js';
import { logShows, tempRoot, within } from '../helpers/root.js';
import { agentPid, agentsOf, endRuns, sessionOf, startDispatched } from './run-once-setup.js';

// One run per task across daemons: a daemon stopped or crashed while a run goes on, another daemon's lease.
const restarts = suite('e2e.one run per task across daemons');
restarts.after.each(endRuns);

restarts('a task cancelled while the daemon is stopped has no agent left after the next start', async () => {
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

restarts(
  'a run orphaned by a daemon crash is requeued at the next start without counting a failed dispatch',
  async () => {
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
  },
);

restarts(
  'a local run whose task another daemon sharing the tree dispatched again (another session) is ended at the next poll',
  async () => {
    const root = tempRoot();
    const { id } = await startDispatched(root);
    const pid = await agentPid(root, id);
    const session = await sessionOf(root, id);
    // What another host's daemon writes when it leases the task after this lease expired.
    await createStore({ root }).commit(
      id,
      (current) => ({
        task: {
          ...current.task,
          lease: { ...current.task.lease!, sessionId: 'other-host-session', host: 'host-b', pid: 1 },
        },
        body: current.body,
        status: 'in-progress',
      }),
      'scheduler',
    );
    await within(15_000, () => !isAlive(pid), 'the old run ended');
    assert.is(readFileSync(`${root}/agent-${id}.term`, 'utf8').trim(), session);
    await logShows(`${root}/data/logs/daemon.log`, /its task is in progress under session other-host-session/); // logged once the signals are sent
  },
);

restarts(
  'a run a crashed daemon left running is watched by the next daemon: when it ends, its task is requeued without counting a failure',
  async () => {
    const root = tempRoot();
    const { first, id } = await startDispatched(root);
    const pid = await agentPid(root, id);
    await first.kill();
    startChild(root);
    await healthy(root);
    await within(
      10_000,
      () => readFileSync(`${root}/data/logs/daemon.log`, 'utf8').includes(`${id}: its local agent (session`),
      'the adoption logged',
    );
    assert.is((await createStore({ root }).get(id)).status, 'in-progress', 'left to its agent while it runs');
    process.kill(pid, 'SIGKILL');
    await agentPid(root, id, 2);
    const task = (await createStore({ root }).get(id)).task;
    assert.is(task.metadata.dispatchFailures, undefined, 'not counted as a failed dispatch');
  },
);

restarts.run();
