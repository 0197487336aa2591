import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toRootId } from '../../lib/core/branch-template.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { completingAgent, SVC_BIN, writeOrg } from '../helpers/agents.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { branches, git, makeRepo, scriptAgent } from '../helpers/git.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { createReady, FAST, statusOf } from './workspace-setup.js';

// Workspaces of tasks running at once (docs/workspaces.md): a worktree and a branch each, git serialised per repository.
const ws = suite('e2e.workspaces.concurrency');
ws.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

ws(
  "two tasks of one workspace running at once get two worktrees on two branches, and neither sees the other's files",
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    const agent = scriptAgent(
      SVC_BIN,
      `
    fs.writeFileSync(env.SVC_TASK_ID + '.txt', 'mine\\n');
    fs.writeFileSync(env.SVC_HOME + '/started-' + env.SVC_TASK_ID, '');
    const deadline = Date.now() + 20000;
    while (fs.readdirSync(env.SVC_HOME).filter((f) => f.startsWith('started-')).length < 2 && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    fs.writeFileSync(env.SVC_HOME + '/seen-' + env.SVC_TASK_ID, JSON.stringify({ cwd: process.cwd(), branch: env.SVC_BRANCH, files: fs.readdirSync('.').filter((f) => f !== '.git').sort() }));
    sh('git', 'add', '-A'); sh('git', 'commit', '-q', '-m', 'work of ' + env.SVC_TASK_ID);
    complete({ summary: 'done' });`,
    );
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: agent, maxConcurrent: 2, workspace: 'app' }],
      aof: { daemon: FAST, workspaces: { app: { repo } } },
    });
    await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
    const a = await createReady(root, { title: 'First', agent: 'dev' });
    const b = await createReady(root, { title: 'Second', agent: 'dev' });
    await within(
      30_000,
      async () => (await statusOf(root, a)) === 'done' && (await statusOf(root, b)) === 'done',
      'both tasks done',
    );
    const seenA = JSON.parse(readFileSync(`${root}/seen-${a}`, 'utf8')) as {
      cwd: string;
      branch: string;
      files: string[];
    };
    const seenB = JSON.parse(readFileSync(`${root}/seen-${b}`, 'utf8')) as {
      cwd: string;
      branch: string;
      files: string[];
    };
    assert.is(seenA.cwd, `${root}/worktrees/${a}`);
    assert.is(seenB.cwd, `${root}/worktrees/${b}`);
    assert.equal([seenA.branch, seenB.branch], [`svc/${toRootId(root)}/${a}`, `svc/${toRootId(root)}/${b}`]);
    assert.equal(seenA.files, ['README.md', `${a}.txt`]);
    assert.equal(seenB.files, ['README.md', `${b}.txt`]);
    assert.equal(git(repo, 'show', '--name-only', '--format=', `svc/${toRootId(root)}/${a}`), `${a}.txt`);
  },
);

ws(
  'ten tasks dispatched at once into one repository all get worktrees (git is serialised per repository)',
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent(), maxConcurrent: 10, workspace: 'app' }],
      aof: { daemon: { ...FAST, maxConcurrentDispatches: 10 }, workspaces: { app: { repo } } },
    });
    const store = createStore({ root });
    await store.init();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push(
        (await store.create({ title: `Task ${i}`, status: 'ready', routing: { agent: 'dev' }, createdBy: 'test' })).task
          .id,
      );
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    await within(
      45_000,
      async () => (await Promise.all(ids.map((id) => statusOf(root, id)))).every((s) => s === 'done'),
      'all ten done',
    );
    const events = await readEvents(root, {});
    assert.equal(
      events.filter((e) => e.type === 'dispatch.failed').map((e) => e.payload.reason),
      [],
      'no failed dispatch',
    );
    assert.is(events.filter((e) => e.type === 'workspace.attached').length, 10);
    assert.equal(branches(repo), ['main', ...ids.map((id) => `svc/${toRootId(root)}/${id}`)].sort());
  },
);

ws.run();
