import { GitError, runGit } from './git.js';

/** A branch svc made, as it is now: gone, or its commit and whether `base` contains it. */
export type BranchState = { exists: false } | { exists: true; sha: string; merged: boolean };

/**
 * Whether `branch` of `repo` exists, and whether it is merged into `base` (every commit of it reachable from `base`; a
 * branch with no commit of its own is merged).
 */
export async function readBranchState(repo: string, branch: string, base: string): Promise<BranchState> {
  const found = await runGit(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  if (!found.ok) return { exists: false };
  const sha = found.stdout.trim();
  const merged = (await runGit(repo, ['merge-base', '--is-ancestor', sha, `${base}^{commit}`])).ok;
  return { exists: true, sha, merged };
}

/**
 * Deletes `branch` only if it still points at `sha` (what was found merged): a commit added since
 * makes git refuse, so no work is lost. Refused too while any worktree has the branch checked out.
 */
export async function deleteMergedBranch(repo: string, branch: string, sha: string): Promise<void> {
  const worktrees = await runGit(repo, ['worktree', 'list', '--porcelain']);
  if (worktrees.stdout.split('\n').includes(`branch refs/heads/${branch}`))
    throw new GitError(`branch ${branch} is checked out in a worktree of ${repo}: not deleted`);
  const deleted = await runGit(repo, ['update-ref', '-d', `refs/heads/${branch}`, sha]);
  if (!deleted.ok)
    throw new GitError(
      `branch ${branch} of ${repo} was not deleted (it moved since it was found merged?): ${deleted.stderr}`,
    );
}
