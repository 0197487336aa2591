import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../../lib/store/commit/store.js';
import { writeOrg } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { git, makeRepo } from '../../helpers/git.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const claim = suite('cli.task claim');
claim.after.each(cleanRoots);

claim(
  'a claimed task with a workspace gets its worktree, as a dispatch would, and the claim prints its path',
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev' }],
      aof: { workspaces: { app: { repo, base: 'main', root: `${root}/wt` } } },
    });
    const id = (await svc(root, 'task', 'create', 'Fix by hand', '--workspace', 'app')).stdout.split('\n')[0]!;
    assert.is((await svc(root, 'task', 'promote', id)).code, 0);
    const out = await svc(root, 'task', 'claim', id);
    assert.is(out.code, 0, out.stderr);
    const { task } = await createStore({ root }).get(id);
    assert.ok(task.workspace, 'the worktree is recorded in the task');
    assert.is(task.workspace!.path, `${root}/wt/${id}`);
    assert.ok(
      out.stdout.includes(`\nworktree: ${task.workspace!.path} (branch ${task.workspace!.branch}, workspace app)\n`),
      out.stdout,
    );
    assert.ok(existsSync(`${task.workspace!.path}/.git`), 'a git worktree');
    assert.is(git(task.workspace!.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), task.workspace!.branch);
  },
);

claim('a claimed task without a workspace prints no worktree', async () => {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Plain')).stdout.split('\n')[0]!;
  await svc(root, 'task', 'promote', id);
  const out = await svc(root, 'task', 'claim', id);
  assert.is(out.code, 0, out.stderr);
  assert.not.match(out.stdout, /worktree/);
});

claim.run();
