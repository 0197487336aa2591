import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toRootId } from '../../lib/core/branch-template.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { completingAgent, SVC_BIN, writeOrg } from '../helpers/agents.js';
import { closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { branches, git, makeRepo, scriptAgent } from '../helpers/git.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { createReady, FAST, statusOf } from './workspace-setup.js';

// Removing worktrees (docs/workspaces.md): kept when dirty, never removed when svc did not make it,
// kept while a subtask works in its parent's worktree.
const ws = suite('e2e.workspaces.cleanup');
ws.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

ws(
  'a dirty worktree at done is kept and listed by svc doctor; svc task workspace --remove --force removes it, the branch stays',
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    const agent = scriptAgent(
      SVC_BIN,
      `fs.writeFileSync('scratch.txt', 'not committed\\n'); complete({ summary: 'done' });`,
    );
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: agent, workspace: 'app' }],
      aof: { daemon: FAST, workspaces: { app: { repo } } },
    });
    await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
    const id = await createReady(root, { title: 'Leaves a mess', agent: 'dev' });
    await within(
      45_000,
      async () => (await readEvents(root, { taskId: id, type: 'workspace.kept' })).length === 1,
      'workspace.kept',
    );
    const path = `${root}/worktrees/${id}`;
    assert.ok(existsSync(`${path}/scratch.txt`), 'the worktree and its uncommitted file are kept');
    await closeDaemons();
    const doctor = await runSvc({ SVC_HOME: root, HOME: root }, 'doctor');
    assert.match(
      doctor.stdout,
      new RegExp(
        `kept worktree: ${id} at ${path} \\(branch svc/${toRootId(root)}/${id}\\): uncommitted changes when the task was done`,
      ),
    );
    const plain = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'workspace', id, '--remove');
    assert.is(plain.code, 1);
    assert.match(plain.stderr, /uncommitted changes: commit them, or pass --force/);
    assert.ok(existsSync(path));
    const forced = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'workspace', id, '--remove', '--force');
    assert.is(forced.code, 0, forced.stderr);
    assert.not.ok(existsSync(path));
    assert.ok(branches(repo).includes(`svc/${toRootId(root)}/${id}`));
    assert.not.match((await runSvc({ SVC_HOME: root, HOME: root }, 'doctor')).stdout, /kept worktree/);
  },
);

ws(
  "a worktree svc did not create is never removed, and one in the way of a new worktree is a failed dispatch with git's message",
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }],
      aof: { daemon: { ...FAST, retryBackoffMs: [60_000] }, workspaces: { app: { repo } } },
    });
    const store = createStore({ root });
    await store.init();
    const mine = `${root}/mine`;
    git(repo, 'worktree', 'add', '-q', '-b', 'by-hand', mine, 'main');
    const byHand = await store.create({
      title: 'Uses a worktree made by hand',
      status: 'backlog',
      routing: { agent: 'dev' },
      createdBy: 'test',
    });
    await store.commit(
      byHand.task.id,
      (current) => ({
        task: {
          ...current.task,
          workspace: { name: 'app', path: mine, branch: 'by-hand', base: 'main', host: hostname() },
        },
        body: current.body,
        status: 'ready',
      }),
      'test',
    );
    const blocked = await store.create({
      title: 'Its worktree path is taken',
      status: 'ready',
      routing: { agent: 'dev', workspace: 'app' },
      createdBy: 'test',
    });
    mkdirSync(`${root}/worktrees/${blocked.task.id}`, { recursive: true });
    writeFileSync(`${root}/worktrees/${blocked.task.id}/keep.txt`, "someone else's\n");
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    await within(
      20_000,
      async () => (await statusOf(root, byHand.task.id)) === 'done',
      'the task with a hand-made worktree done',
    );
    const failed = await within(
      20_000,
      async () => (await readEvents(root, { taskId: blocked.task.id, type: 'dispatch.failed' }))[0],
      'dispatch.failed',
    );
    assert.match(
      String(failed.payload.reason),
      /^workspace_failed: git worktree add -b svc\/\S+ .* failed: fatal: '.*' already exists$/,
      String(failed.payload.reason),
    );
    assert.is(readFileSync(`${root}/worktrees/${blocked.task.id}/keep.txt`, 'utf8'), "someone else's\n");
    const task = await store.get(blocked.task.id);
    assert.is(task.status, 'ready');
    assert.is(task.task.workspace, undefined, 'no half-made worktree recorded');
    assert.not.ok(branches(repo).includes(`svc/${toRootId(root)}/${blocked.task.id}`), 'no branch left behind');
    assert.not.ok(existsSync(`${root}/data/workspaces/${blocked.task.id}.json`), 'no record');
    // the poll that would remove a worktree of an ended task has run many times by now
    await within(5000, async () => (await readEvents(root, { type: 'daemon.started' })).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.ok(existsSync(mine), 'the hand-made worktree is still there');
    assert.ok(branches(repo).includes('by-hand'));
  },
);

ws(
  "a subtask with routing.workspace parent works in its parent's worktree, which stays until the subtask ends even when the parent is done first",
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    const lead = scriptAgent(
      SVC_BIN,
      `
    fs.writeFileSync('parent.txt', 'from the parent\\n');
    sh('git', 'add', 'parent.txt'); sh('git', 'commit', '-q', '-m', 'parent work');
    sh(process.execPath, ${JSON.stringify(SVC_BIN)}, 'tool', 'svc_dispatch', JSON.stringify({ title: 'Sub', brief: 'help', agent: 'helper', parentId: env.SVC_TASK_ID, workspace: 'parent', actor: 'lead' }));
    complete({ summary: 'parent done' });`,
    );
    const helper = scriptAgent(
      SVC_BIN,
      `
    const deadline = Date.now() + 20000;
    while (!fs.existsSync(env.SVC_HOME + '/go') && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    fs.writeFileSync(env.SVC_HOME + '/helper-seen', process.cwd() + ' ' + fs.readdirSync('.').filter((f) => f !== '.git').sort().join(','));
    fs.writeFileSync('helper.txt', 'from the subtask\\n');
    sh('git', 'add', 'helper.txt'); sh('git', 'commit', '-q', '-m', 'subtask work');
    complete({ summary: 'sub done' });`,
    );
    writeOrg(root, {
      agents: [
        { id: 'lead', name: 'Lead', command: lead, workspace: 'app' },
        { id: 'helper', name: 'Helper', command: helper },
      ],
      aof: { daemon: FAST, workspaces: { app: { repo } } },
    });
    await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
    const parent = await createReady(root, { title: 'Parent', agent: 'lead' });
    await within(20_000, async () => (await statusOf(root, parent)) === 'done', 'the parent done');
    const path = `${root}/worktrees/${parent}`;
    const store = createStore({ root });
    const sub = await within(
      10_000,
      async () => (await store.list()).tasks.find((t) => t.task.parentId === parent),
      'the subtask',
    );
    await within(10_000, async () => (await store.get(sub.task.id)).status === 'in-progress', 'the subtask dispatched');
    await new Promise((resolve) => setTimeout(resolve, 600)); // polls of the cleanup pass meanwhile
    assert.ok(existsSync(path), "the parent's worktree is kept while its subtask works in it");
    writeFileSync(`${root}/go`, '');
    await within(20_000, async () => (await store.get(sub.task.id)).status === 'done', 'the subtask done');
    assert.is(readFileSync(`${root}/helper-seen`, 'utf8'), `${path} README.md,parent.txt`);
    assert.equal((await store.get(sub.task.id)).task.workspace?.path, path);
    await within(15_000, () => !existsSync(path), 'the worktree removed once no task works in it');
    assert.equal(git(repo, 'log', '--format=%s', `main..svc/${toRootId(root)}/${parent}`).split('\n'), [
      'subtask work',
      'parent work',
    ]);
  },
);

ws.run();
