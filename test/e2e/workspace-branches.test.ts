import { existsSync, readdirSync, rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toRootId } from '../../lib/core/branch-template.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { completingAgent, SVC_BIN, writeOrg } from '../helpers/agents.js';
import { closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { branches, git, makeRepo, scriptAgent } from '../helpers/git.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// Branches of worktrees never collide (docs/workspaces.md): the default template holds the svc
// root's id, since task ids restart per root; a name taken anyway gets the next free one.
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300, retryBackoffMs: [60_000] };

async function readyTasks(root: string, agent: string, count: number): Promise<string[]> {
  const store = createStore({ root });
  await store.init();
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push(
      (await store.create({ title: `Task ${i}`, status: 'ready', routing: { agent }, createdBy: 'test' })).task.id,
    );
  return ids;
}

async function allDone(root: string, ids: readonly string[]): Promise<boolean> {
  const store = createStore({ root });
  return (await Promise.all(ids.map((id) => store.get(id)))).every((t) => t.status === 'done');
}

const names = suite('e2e.workspace branches');
names.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

names('two roots on one repository run tasks with the same ids at once, each on a branch of its own root', async () => {
  const repo = makeRepo(`${tempRoot()}/repo`);
  const roots = [tempRoot(), tempRoot()];
  const ids: string[][] = [];
  for (const root of roots) {
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent(), maxConcurrent: 2, workspace: 'app' }],
      aof: { daemon: FAST, workspaces: { app: { repo } } },
    });
    ids.push(await readyTasks(root, 'dev', 2));
  }
  assert.equal(ids[0], ids[1], 'ids restart per root');
  await Promise.all(roots.map((root) => startTestDaemon(root, { tools: TOOLS, env: process.env })));
  await within(
    45_000,
    async () => (await allDone(roots[0]!, ids[0]!)) && (await allDone(roots[1]!, ids[1]!)),
    'every task of both roots done',
  );
  for (const root of roots)
    assert.equal(
      (await readEvents(root, { type: 'dispatch.failed' })).map((e) => e.payload.reason),
      [],
      'no failed dispatch',
    );
  const expected = roots.flatMap((root, i) => ids[i]!.map((id) => `svc/${toRootId(root)}/${id}`));
  assert.equal(branches(repo), ['main', ...expected].sort());
  assert.is(new Set(expected).size, 4);
});

names(
  'a branch name taken by a branch made by hand is not a failure: the next free name is used, the hand-made branch untouched',
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent(), workspace: 'app' }],
      aof: { daemon: FAST, workspaces: { app: { repo, branch: 'work/{id}' } } },
    });
    const [id] = await readyTasks(root, 'dev', 1);
    git(repo, 'branch', `work/${id}`);
    git(repo, 'branch', `work/${id}-2`);
    const before = git(repo, 'rev-parse', `work/${id}`);
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    await within(30_000, () => allDone(root, [id!]), 'the task done');
    assert.equal((await readEvents(root, { type: 'dispatch.failed' })).length, 0);
    assert.is((await createStore({ root }).get(id!)).task.workspace?.branch, `work/${id}-3`);
    assert.is(git(repo, 'rev-parse', `work/${id}`), before);
  },
);

const prune = suite('e2e.workspace prune');
prune.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

prune(
  "svc workspace list shows what svc made; prune --dry-run changes nothing; prune --merged deletes only svc's merged branches; prune removes a kept worktree once clean",
  async () => {
    const root = tempRoot();
    const env = { SVC_HOME: root, HOME: root };
    const repo = makeRepo(`${root}/repo`);
    const committer = scriptAgent(
      SVC_BIN,
      `fs.writeFileSync('work.txt', 'work\\n'); sh('git', 'add', 'work.txt'); sh('git', 'commit', '-q', '-m', 'work'); complete({ summary: 'done' });`,
    );
    const messy = scriptAgent(
      SVC_BIN,
      `fs.writeFileSync('scratch.txt', 'not committed\\n'); complete({ summary: 'done' });`,
    );
    writeOrg(root, {
      agents: [
        { id: 'committer', name: 'C', command: committer, workspace: 'app' },
        { id: 'idle', name: 'I', command: completingAgent(), workspace: 'app' },
        { id: 'messy', name: 'M', command: messy, workspace: 'app' },
      ],
      aof: { daemon: FAST, workspaces: { app: { repo } } },
    });
    const [unmerged] = await readyTasks(root, 'committer', 1);
    const [merged] = await readyTasks(root, 'idle', 1);
    const [dirty] = await readyTasks(root, 'messy', 1);
    git(repo, 'branch', 'feature'); // made by hand, merged: never svc's to delete
    git(repo, 'worktree', 'add', '-q', '-b', 'by-hand', `${root}/mine`, 'main');
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    await within(
      45_000,
      async () =>
        (await allDone(root, [unmerged!, merged!, dirty!])) &&
        (await readEvents(root, { type: 'workspace.kept' })).length === 1 &&
        (await readEvents(root, { type: 'workspace.removed' })).length === 2,
      'all done, two worktrees removed, one kept',
    );
    await closeDaemons();
    const branchOf = (id: string) => `svc/${toRootId(root)}/${id}`;
    const listed = JSON.parse((await runSvc(env, 'workspace', 'list', '--json')).stdout) as {
      workspaces: { taskId: string; worktree: string; branchState: string }[];
    };
    assert.equal(
      listed.workspaces.map((w) => [w.taskId, w.worktree, w.branchState]),
      [
        [unmerged, 'removed', 'unmerged'],
        [merged, 'removed', 'merged'],
        [dirty, 'dirty', 'merged'],
      ],
    );
    const text = (await runSvc(env, 'workspace', 'list')).stdout;
    assert.match(
      text,
      new RegExp(
        `^${dirty}  done  worktree dirty \\(kept: uncommitted changes when the task was done\\) ${root}/worktrees/${dirty}  branch svc/${toRootId(root)}/${dirty} merged \\(base main\\)  ${root}/repo$`,
        'm',
      ),
    );
    const snapshot = () => ({
      branches: branches(repo),
      records: readdirSync(`${root}/data/workspaces`).sort(),
      worktrees: git(repo, 'worktree', 'list', '--porcelain'),
    });
    const before = snapshot();
    const dry = await runSvc(env, 'workspace', 'prune', '--merged', '--dry-run', '--json');
    assert.is(dry.code, 0, dry.stderr);
    const planned = JSON.parse(dry.stdout) as {
      steps: { taskId: string; action: string }[];
      left: { taskId: string; reason: string }[];
    };
    assert.equal(
      planned.steps.map((s) => [s.taskId, s.action]),
      [
        [merged, 'delete-branch'],
        [merged, 'forget'],
      ],
    );
    assert.equal(
      planned.left.map((l) => l.taskId),
      [unmerged, dirty],
    );
    assert.match(planned.left[0]!.reason, /has commits that are not in main/);
    assert.match(planned.left[1]!.reason, /has uncommitted changes/);
    assert.equal(snapshot(), before, 'a dry run changes nothing');
    const pruned = await runSvc(env, 'workspace', 'prune', '--merged');
    assert.is(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stdout, new RegExp(`${merged}: deleted branch ${branchOf(merged!)} \\(merged\\)`));
    assert.equal(
      branches(repo),
      ['by-hand', 'feature', 'main', branchOf(unmerged!), branchOf(dirty!)].sort(),
      "only svc's merged branch is gone",
    );
    assert.ok(existsSync(`${root}/mine`), 'the hand-made worktree stays');
    assert.ok(existsSync(`${root}/worktrees/${dirty}/scratch.txt`), 'the dirty worktree stays');
    assert.equal(
      (await readEvents(root, { type: 'workspace.branch_deleted' })).map((e) => e.payload.branch),
      [branchOf(merged!)],
    );
    rmSync(`${root}/worktrees/${dirty}/scratch.txt`);
    const tidy = await runSvc(env, 'workspace', 'prune', '--json');
    assert.equal(
      (JSON.parse(tidy.stdout) as { steps: { taskId: string; action: string }[] }).steps.map((s) => [
        s.taskId,
        s.action,
      ]),
      [[dirty, 'remove-worktree']],
    );
    assert.not.ok(existsSync(`${root}/worktrees/${dirty}`), 'the kept worktree, clean now, is removed');
    assert.ok(branches(repo).includes(branchOf(dirty!)), 'without --merged its branch stays');
  },
);

names.run();
prune.run();
