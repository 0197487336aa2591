import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { dispatch, FAST, pidsOf, waitingCheck } from './checks-setup.js';

// Checks that gate done (docs/workspaces.md): run by the daemon under a lease to `svc`, each in
// its own process group with its timeout, again after a daemon killed mid-check, ended by a cancel.
// A daemon killed mid-check: checks-crash.test.ts.
const checks = suite('e2e.checks');
checks.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

checks(
  'a check that hangs is killed with its process group at its timeout and counts as failed; maxCheckFailures blocks the task',
  async () => {
    const root = tempRoot();
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }],
      aof: {
        daemon: { ...FAST, maxCheckFailures: 1 },
        checks: { hang: { run: waitingCheck(root), timeoutMs: 1500, cwd: root } },
      },
    });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const id = await dispatch(root, ['hang']);
    await within(15_000, () => existsSync(`${root}/check-1.pids`), 'the check to start');
    const during = await createStore({ root }).get(id);
    assert.is(during.status, 'in-progress');
    assert.is(during.task.lease?.agent, 'svc', 'leased to the daemon while its checks run');
    const leaseMs = Date.parse(during.task.lease!.expiresAt) - Date.now();
    assert.ok(
      leaseMs > 55_000 && leaseMs <= 1500 + 2500 + 60_000,
      `the lease ends with the check's timeout, its end and a minute (${leaseMs} ms left)`,
    );
    const failed = await within(
      15_000,
      async () => (await readEvents(root, { taskId: id, type: 'task.check_failed' }))[0],
      'task.check_failed',
    );
    assert.is(failed.payload.timedOut, true);
    assert.is(failed.payload.to, 'blocked');
    for (const pid of pidsOf(root, 1)) await within(5000, () => !isAlive(pid), `check process ${pid} to be gone`);
    const after = await createStore({ root }).get(id);
    assert.is(after.status, 'blocked');
    assert.equal(
      { ...(after.task.metadata.lastCheck as object), at: undefined },
      { name: 'hang', exitCode: null, timedOut: true, at: undefined },
    );
    assert.match(
      after.body,
      /## Check failed: hang \(.*\)\n\ntimed out; full output in .*check-hang-1\.log\. Last lines of its output:\n\n```\ncheck run 1 waiting\n\n\[svc\] check hang timed out after 1500 ms/,
    );
    const transitions = await readEvents(root, { taskId: id, type: 'task.transitioned' });
    assert.match(
      String(transitions.at(-1)!.payload.reason),
      /check hang failed 1 times in a row \(maxCheckFailures 1\)/,
    );
  },
);

checks("cancelling a task whose check runs ends the check's process group; the task stays cancelled", async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }],
    aof: { daemon: FAST, checks: { slow: { run: waitingCheck(root), timeoutMs: 60_000, cwd: root } } },
  });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const id = await dispatch(root, ['slow']);
  await within(15_000, () => existsSync(`${root}/check-1.pids`), 'the check to start');
  const { task } = await createStore({ root }).get(id);
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_task_cancel',
    params: { taskId: id, sessionId: task.lease!.sessionId, reason: 'not needed' },
  });
  assert.is(status, 200, JSON.stringify(body));
  for (const pid of pidsOf(root, 1)) await within(10_000, () => !isAlive(pid), `check process ${pid} to be gone`);
  await new Promise((resolve) => setTimeout(resolve, 500)); // a commit of the check's end would come now
  assert.is((await createStore({ root }).get(id)).status, 'cancelled');
  assert.equal(
    (await readEvents(root, { taskId: id }))
      .filter((e) => e.type.startsWith('task.check') || e.type === 'task.verified')
      .map((e) => e.type),
    ['task.checking'],
  );
});

checks(
  'a passing check whose setsid child lingers, holding its output open, passes at once and that child is ended',
  async () => {
    const root = tempRoot();
    const script = `setsid sh -c 'echo $$ > "${root}/lingering.pid"; exec sleep 40' & while [ ! -s "${root}/lingering.pid" ]; do sleep 0.05; done; exit 0`;
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }],
      aof: { daemon: FAST, checks: { quick: { run: ['sh', '-c', script], timeoutMs: 15_000, cwd: root } } },
    });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const id = await dispatch(root, ['quick']);
    const verified = await within(
      15_000,
      async () => (await readEvents(root, { taskId: id, type: 'task.verified' }))[0],
      'task.verified',
    );
    assert.ok(
      Number(verified.payload.durationMs) < 5000,
      `the check took ${String(verified.payload.durationMs)} ms, not the 40 s of its child`,
    );
    const lingering = Number(readFileSync(`${root}/lingering.pid`, 'utf8').trim());
    await within(5000, () => !isAlive(lingering), 'the lingering child to be ended');
    assert.is((await createStore({ root }).get(id)).status, 'done');
  },
);

checks(
  'a lease to svc past its expiry (set by hand here) is expired like any other: the check is ended, the held completion dropped',
  async () => {
    const root = tempRoot();
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }],
      aof: { daemon: FAST, checks: { slow: { run: waitingCheck(root), timeoutMs: 60_000, cwd: root } } },
    });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const id = await dispatch(root, ['slow']);
    await within(15_000, () => existsSync(`${root}/check-1.pids`), 'the check to start');
    const paused = await runSvc(
      { SVC_HOME: root, HOME: root },
      'agent',
      'pause',
      'dev',
      '--reason',
      'keep the task in ready once it expires',
    );
    assert.is(paused.code, 0, paused.stderr);
    const store = createStore({ root });
    const { task } = await store.get(id);
    const file = store.paths.taskFile('in-progress', id);
    const past = '2026-01-01T00:00:00.000Z';
    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes(task.lease!.expiresAt));
    writeFileSync(`${file}.edit`, text.replace(task.lease!.expiresAt, past));
    renameSync(`${file}.edit`, file);
    const expired = await within(
      15_000,
      async () => (await readEvents(root, { taskId: id, type: 'lease.expired' }))[0],
      'lease.expired',
    );
    assert.equal([expired.payload.agent, expired.payload.expiredAt], ['svc', past]);
    for (const pid of pidsOf(root, 1)) await within(10_000, () => !isAlive(pid), `check process ${pid} to be gone`);
    const after = await within(
      15_000,
      async () => {
        const t = await store.get(id);
        return t.status === 'ready' && t;
      },
      'the task back in ready',
    );
    assert.is(after.task.lease, undefined);
    assert.is(after.task.metadata.pendingCheck, undefined, 'the completion its checks held back is dropped');
    const transitions = await readEvents(root, { taskId: id, type: 'task.transitioned' });
    assert.match(
      String(transitions.at(-1)!.payload.reason),
      /lease expired: its checks did not end within their timeouts/,
    );
    assert.equal(
      (await readEvents(root, { taskId: id })).filter(
        (e) => e.type === 'task.verified' || e.type === 'task.check_failed',
      ).length,
      0,
    );
  },
);

checks.run();
