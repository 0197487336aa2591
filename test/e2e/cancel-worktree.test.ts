import { existsSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toRootId } from '../../lib/core/branch-template.js';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { readEvents } from '../../lib/store/events/log.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { branches, makeRepo } from '../helpers/git.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// A cancel removes the task's worktree only once its run is gone (docs/workspaces.md), and the
// task's workspace then says that svc removed it, when and why.
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 1500 };

/** argv of an agent that ignores SIGTERM (`trap '' TERM`), writes its pid to `<SVC_HOME>/agent.pid` and works on until killed. */
const STUBBORN = ['sh', '-c', `trap '' TERM; echo $$ > "$SVC_HOME/agent.pid"; while :; do sleep 0.05; done`];

async function invoke(root: string, tool: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool, params });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: Record<string, unknown> }).result;
}

const cancel = suite('e2e.cancel and the worktree');
cancel.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

cancel(
  'a cancel keeps the worktree until the agent, which ignores SIGTERM, is gone; then svc task workspace and svc task show say svc removed it',
  async () => {
    const root = tempRoot();
    const env = { SVC_HOME: root, HOME: root };
    const repo = makeRepo(`${root}/repo`);
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: STUBBORN }],
      aof: { daemon: FAST, workspaces: { app: { repo, base: 'main', root: `${root}/wt` } } },
    });
    await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
    const id = String(
      (await invoke(root, 'operator_task_create', { title: 'Stubborn work', agent: 'dev', workspace: 'app' })).id,
    );
    await invoke(root, 'operator_task_status', { taskId: id, status: 'ready' });
    const pid = await within(
      20_000,
      () => existsSync(`${root}/agent.pid`) && Number(readFileSync(`${root}/agent.pid`, 'utf8')),
      'the agent to start',
    );
    const path = `${root}/wt/${id}`;
    assert.ok(existsSync(path), 'the agent works in its worktree');
    const cancelled = await runSvc(env, 'task', 'cancel', id, '--reason', 'not needed');
    assert.is(cancelled.code, 0, cancelled.stderr);
    let removedWhileAlive = false;
    const sampler = setInterval(() => (removedWhileAlive ||= !existsSync(path) && isAlive(pid)), 20);
    try {
      await within(15_000, () => !isAlive(pid), 'the agent to be killed');
      await within(15_000, () => !existsSync(path), 'the worktree to be removed');
    } finally {
      clearInterval(sampler);
    }
    assert.not.ok(removedWhileAlive, 'the worktree was never removed while the agent ran');
    assert.equal(branches(repo), ['main', `svc/${toRootId(root)}/${id}`], 'the branch is kept');
    const removed = await within(
      5000,
      async () => (await readEvents(root, { taskId: id, type: 'workspace.removed' }))[0],
      'workspace.removed',
    );
    const at = String(removed.timestamp);
    const shown = await runSvc(env, 'task', 'workspace', id);
    assert.is(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, `${id}: ${path} (branch svc/${toRootId(root)}/${id}, from main, host `);
    assert.match(
      shown.stdout,
      `): removed by svc at ${at} (task cancelled); branch svc/${toRootId(root)}/${id} is kept`,
    );
    const json = JSON.parse((await runSvc(env, 'task', 'workspace', id, '--json')).stdout) as Record<string, unknown>;
    assert.equal([json.state, json.createdBySvc, json.removed], ['removed', true, { at, reason: 'task cancelled' }]);
    const show = await runSvc(env, 'task', 'show', id);
    assert.match(show.stdout, `workspace: app at ${path} (branch svc/${toRootId(root)}/${id}, from main, host `);
    assert.match(show.stdout, `): removed by svc at ${at} (task cancelled)`);
    const again = await runSvc(env, 'task', 'workspace', id, '--remove');
    assert.is(again.code, 1);
    assert.match(again.stderr, `was already removed by svc at ${at} (task cancelled)`);
  },
);

cancel.run();
