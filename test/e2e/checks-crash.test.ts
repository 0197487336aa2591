import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { closeDaemons, healthy, runSvc, startChild } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { dispatch, FAST, pidsOf, waitingCheck } from './checks-setup.js';

// Checks that gate done (docs/workspaces.md) when the daemon running one is SIGKILLed: the next
// daemon ends the old check, its setsid grandchild included, and runs it again.
const checks = suite('e2e.checks-crash');
checks.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

checks(
  'a daemon SIGKILLed during a check ends the old check and runs it again after its restart; the task ends once',
  async () => {
    const root = tempRoot();
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }],
      aof: { daemon: FAST, checks: { slow: { run: waitingCheck(root), timeoutMs: 60_000, cwd: root } } },
    });
    const first = startChild(root);
    await healthy(root);
    const id = await dispatch(root, ['slow']);
    await within(20_000, () => existsSync(`${root}/check-1.pids`), 'the first check run');
    await first.kill();
    const [oldCheck, oldChild] = pidsOf(root, 1);
    assert.ok(isAlive(oldCheck!), 'the check outlives the killed daemon (its own process group)');
    startChild(root);
    await healthy(root);
    await within(20_000, () => existsSync(`${root}/check-2.pids`), 'the check to run again');
    assert.not.ok(isAlive(oldCheck!) || isAlive(oldChild!), 'the old run was ended');
    assert.is((await createStore({ root }).get(id)).status, 'in-progress');
    const show = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'show', id);
    assert.match(show.stdout, /^status: in-progress$/m);
    assert.match(
      show.stdout,
      /^lease: svc until \S+ \(session \S+\)$/m,
      'svc task show names the daemon as the holder while the checks run',
    );
    assert.match(show.stdout, /"pendingCheck":\{"checks":\["slow"\]/);
    writeFileSync(`${root}/release`, '');
    await within(20_000, async () => (await createStore({ root }).get(id)).status === 'done', 'done');
    const events = await within(
      5000,
      async () => {
        const all = await readEvents(root, { taskId: id });
        return all.some((e) => e.type === 'task.completed') && all;
      },
      'task.completed',
    ); // appended just after the commit
    await new Promise((resolve) => setTimeout(resolve, 500)); // a second completion would show now
    assert.is((await readEvents(root, { taskId: id })).filter((e) => e.type === 'task.completed').length, 1);
    assert.is(events.filter((e) => e.type === 'task.verified').length, 1);
    assert.is(events.filter((e) => e.type === 'task.check_failed').length, 0);
  },
);

checks(
  'a daemon SIGKILLed during a check whose setsid grandchild lingers: the next daemon ends it, found by its marker, and runs the check again',
  async () => {
    const root = tempRoot();
    const script = `if [ -e "${root}/started" ]; then exit 0; fi
    setsid sh -c 'echo $$ > "${root}/lingering.pid"; exec sleep 60' &
    while [ ! -s "${root}/lingering.pid" ]; do sleep 0.05; done
    touch "${root}/started"; sleep 60`;
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }],
      aof: { daemon: FAST, checks: { slow: { run: ['sh', '-c', script], timeoutMs: 60_000, cwd: root } } },
    });
    const first = startChild(root);
    await healthy(root);
    const id = await dispatch(root, ['slow']);
    await within(20_000, () => existsSync(`${root}/started`), 'the first check run');
    await first.kill();
    const lingering = Number(readFileSync(`${root}/lingering.pid`, 'utf8').trim());
    assert.ok(isAlive(lingering), 'the grandchild outlives the killed daemon');
    startChild(root);
    await healthy(root);
    await within(
      20_000,
      async () => (await createStore({ root }).get(id)).status === 'done',
      'done after the check ran again',
    );
    await within(5000, () => !isAlive(lingering), 'the grandchild of the old run to be ended');
  },
);

checks.run();
