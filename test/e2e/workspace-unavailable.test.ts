import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { makeRepo } from '../helpers/git.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// One workspace whose repository is deleted while the daemon runs holds only its own tasks
// (reason workspace-unavailable): every other create and dispatch goes on, and the daemon's
// status names the workspace (docs/workspaces.md).
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300, retryBackoffMs: [200] };

const unavailable = suite('e2e.workspace unavailable');
unavailable.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

unavailable(
  "a deleted workspace repository holds only that workspace's tasks; other creates and dispatches work; svc daemon status names it; restored, its tasks run",
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    const env = { SVC_HOME: root, HOME: root };
    writeOrg(root, {
      agents: [
        { id: 'coder', name: 'Coder', command: completingAgent(), workspace: 'app' },
        { id: 'writer', name: 'Writer', command: completingAgent() },
      ],
      roles: { author: { agents: ['writer'] } },
      aof: { daemon: FAST, workspaces: { app: { repo } } },
    });
    await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
    rmSync(repo, { recursive: true, force: true });
    const store = createStore({ root });
    const created: string[] = [];
    for (const routing of [
      ['--agent', 'writer'],
      ['--role', 'author'],
      ['--agent', 'coder'],
    ]) {
      const out = await runSvc(env, 'task', 'create', `By ${routing[1]}`, ...routing);
      assert.is(out.code, 0, out.stderr);
      created.push(out.stdout.trim().split('\n')[0]!);
    }
    const [byAgent, byRole, coded] = created as [string, string, string];
    for (const id of created) assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
    const dispatched = await runSvc(
      env,
      'tool',
      'svc_dispatch',
      JSON.stringify({ title: 'Dispatched', brief: 'write it', agent: 'writer' }),
    );
    assert.is(dispatched.code, 0, dispatched.stderr);
    const viaTool = String((JSON.parse(dispatched.stdout) as { taskId: string }).taskId);
    await within(
      20_000,
      async () =>
        (await Promise.all([byAgent, byRole, viaTool].map((id) => store.get(id)))).every((t) => t.status === 'done'),
      'the tasks without a workspace done',
    );
    const plan = await runSvc(env, 'scheduler', 'run');
    assert.match(
      plan.stdout,
      new RegExp(
        `hold\\s+${coded}: workspace-unavailable: workspace app cannot be used: aof\\.workspaces\\.app\\.repo: ${repo} is not a directory`,
      ),
    );
    assert.is((await store.get(coded)).status, 'ready', 'held, not failed');
    const status = await runSvc(env, 'daemon', 'status');
    assert.match(status.stdout, /Config: org\/org-chart\.yaml ok \(2 agents; 1 workspace unavailable\)/);
    assert.match(
      status.stdout,
      new RegExp(
        `workspace app UNAVAILABLE \\(its tasks are held, reason workspace-unavailable\\): aof\\.workspaces\\.app\\.repo: ${repo} is not a directory`,
      ),
    );
    const validate = await runSvc(env, 'org', 'validate');
    assert.is(validate.code, 1);
    assert.match(validate.stderr, new RegExp(`aof\\.workspaces\\.app\\.repo: ${repo} is not a directory`));
    makeRepo(repo);
    await within(
      20_000,
      async () => (await store.get(coded)).status === 'done',
      'the held task done once the repository is back',
    );
    assert.not.match((await runSvc(env, 'daemon', 'status')).stdout, /UNAVAILABLE/);
  },
);

unavailable.run();
