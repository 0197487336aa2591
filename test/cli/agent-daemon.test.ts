import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { svc } from '../helpers/cli.js';
import { call, closeDaemons, healthy, startChild, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';
import { listed, readyTask, statusOf, writeAgents } from './agent-fixture.js';

const live = suite('cli.agent with a daemon');
live.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

live(
  'a pause made by the command line stops new dispatches at once, running runs finish, resume dispatches without a poll',
  async () => {
    const root = tempRoot();
    writeAgents(root);
    const daemon = await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
    const first = await readyTask(root, 'Runs before the pause');
    await within(15_000, () => statusOf(root, first) === 'in-progress', 'the first task dispatched');
    assert.is((await svc(root, 'agent', 'pause', 'dev', '--reason', 'maintenance')).code, 0);
    await logShows(daemon.paths.daemonLog, /agent pauses changed: dev paused/);
    const other = await readyTask(root, 'Another agent is not paused', 'dev2');
    writeFileSync(`${root}/go`, '');
    await within(
      15_000,
      () => statusOf(root, first) === 'done' && statusOf(root, other) === 'done',
      "the running run and dev2's task finish",
    );
    await within(
      15_000,
      async () => (await listed(root)).filter((row) => row.status === 'done').length === 2,
      "the daemon's index sees both done",
    );
    const second = await readyTask(root, 'Waits for the resume'); // its tick plans before the next command runs
    const plan = await svc(root, 'scheduler', 'run');
    assert.match(
      plan.stdout,
      new RegExp(`hold        ${second}: agent-paused: agent dev is paused .*\\(maintenance\\)`),
    );
    assert.match(plan.stdout, /by the running daemon/);
    assert.match((await svc(root, 'daemon', 'status')).stdout, /\nPaused: dev since \S+ by operator \(maintenance\)\n/);
    assert.is(statusOf(root, second), 'ready');
    assert.is((await svc(root, 'agent', 'resume', 'dev')).code, 0);
    await within(15_000, () => statusOf(root, second) === 'done', 'the held task dispatched after the resume');
    const rows = JSON.parse((await svc(root, 'agent', 'list', '--json')).stdout).agents as {
      id: string;
      paused: boolean;
      lastDispatch: { taskId: string };
    }[];
    assert.equal(
      rows.map((r) => [r.id, r.paused, r.lastDispatch.taskId]),
      [
        ['dev', false, second],
        ['dev2', false, other],
      ],
    );
  },
);

live('the pause survives a daemon restart and is shown by daemon status', async () => {
  const root = tempRoot();
  writeAgents(root);
  assert.is((await svc(root, 'agent', 'pause', 'dev', '--reason', 'over budget')).code, 0);
  const id = await readyTask(root, 'Held across restarts');
  let daemon = startChild(root);
  await healthy(root);
  await within(
    15_000,
    async () => /Paused: dev since \S+ by operator \(over budget\)/.test((await svc(root, 'daemon', 'status')).stdout),
    'the Paused line once the scheduler has read the file',
  );
  const status = JSON.parse((await svc(root, 'daemon', 'status', '--json')).stdout) as {
    pausedAgents: { agent: string; reason: string }[];
  };
  assert.equal(
    status.pausedAgents.map((p) => [p.agent, p.reason]),
    [['dev', 'over budget']],
  );
  await daemon.kill();
  daemon = startChild(root);
  await healthy(root);
  await within(
    15_000,
    async () => {
      const body = (await call(root, 'GET', '/status')).body as { mode: string; config?: unknown };
      return body.config !== undefined && body.mode === 'standalone'; // the scheduler runs (config) and its boot window is over (its end asks for a tick)
    },
    'the scheduler started and out of its boot window',
  );
  const replan = await svc(root, 'scheduler', 'run');
  assert.match(replan.stdout, new RegExp(`hold        ${id}: agent-paused`), replan.stdout + replan.stderr);
  assert.is(statusOf(root, id), 'ready');
  writeFileSync(`${root}/go`, '');
  assert.is((await svc(root, 'agent', 'resume', 'dev')).code, 0);
  await within(15_000, () => statusOf(root, id) === 'done', 'dispatched after the resume');
  await daemon.kill();
});

live.run();
