import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addWorktree, removeWorktree, worktreeState } from '../../lib/workspace/git.js';
import { branches, git, makeRepo } from '../helpers/git.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

/** The message a promise rejects with ('' when it resolves). */
async function failure(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => '',
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );
}

const worktrees = suite('workspace.addWorktree');
worktrees.after.each(cleanRoots);

worktrees(
  'twenty worktrees added at once to one repository all succeed (git runs one command at a time per repository)',
  async () => {
    const root = tempRoot();
    const repo = makeRepo(join(root, 'repo'));
    const made = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        addWorktree({ repo, path: join(root, 'wt', `t${i}`), branch: `svc/t${i}`, base: 'main' }),
      ),
    );
    assert.equal(
      made.filter((m) => m.status === 'rejected').map((m) => String((m as PromiseRejectedResult).reason)),
      [],
    );
    assert.is(git(repo, 'worktree', 'list').split('\n').length, 21);
  },
);

worktrees(
  "without a base, a worktree starts from the branch of HEAD; a missing base is an error with git's words; a taken branch name gets the next free one, and only nine taken are an error naming the template's fix",
  async () => {
    const root = tempRoot();
    const repo = makeRepo(join(root, 'repo'));
    assert.equal(await addWorktree({ repo, path: join(root, 'a'), branch: 'svc/a' }), {
      path: join(root, 'a'),
      branch: 'svc/a',
      base: 'main',
    });
    assert.match(
      await failure(addWorktree({ repo, path: join(root, 'b'), branch: 'svc/b', base: 'nope' })),
      /base "nope" is not a commit of/,
    );
    assert.equal(await addWorktree({ repo, path: join(root, 'c'), branch: 'svc/a', base: 'main' }), {
      path: join(root, 'c'),
      branch: 'svc/a-2',
      base: 'main',
    });
    for (let n = 3; n <= 9; n++) git(repo, 'branch', `svc/a-${n}`);
    assert.match(
      await failure(addWorktree({ repo, path: join(root, 'f'), branch: 'svc/a', base: 'main' })),
      /branches svc\/a and svc\/a-2 to svc\/a-9 all exist already in .*: the workspace's branch template makes names others use too; put \{root\} in it \(the default is "svc\/\{root\}\/\{id\}"\)/,
    );
    assert.equal(branches(repo), ['main', 'svc/a', ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `svc/a-${n}`)].sort());
    assert.not.ok(existsSync(join(root, 'f')));
    assert.match(
      await failure(addWorktree({ repo: join(root, 'a', 'missing'), path: join(root, 'd'), branch: 'svc/d' })),
      /the repository .*missing does not exist/,
    );
    assert.match(
      await failure(addWorktree({ repo: root, path: join(root, 'e'), branch: 'svc/e' })),
      /has no HEAD commit to start a worktree from: fatal: not a git repository/,
    );
  },
);

worktrees('a worktree is clean, dirty with an untracked file, and missing once removed; the branch stays', async () => {
  const root = tempRoot();
  const repo = makeRepo(join(root, 'repo'));
  const path = join(root, 'w');
  await addWorktree({ repo, path, branch: 'svc/w' });
  assert.is(await worktreeState(repo, path), 'clean');
  writeFileSync(join(path, 'new.txt'), 'x');
  assert.is(await worktreeState(repo, path), 'dirty');
  assert.match(await failure(removeWorktree(repo, path)), /contains modified or untracked files/);
  await removeWorktree(repo, path, { force: true });
  assert.not.ok(existsSync(path));
  assert.is(await worktreeState(repo, path), 'missing');
  assert.ok(branches(repo).includes('svc/w'));
});

worktrees.run();
