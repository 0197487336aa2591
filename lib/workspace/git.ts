import { execFile } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { findLinkOnTheWay } from './links.js';

/** What a git command printed, and how it ended. */
export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/** Where a new worktree goes and what it starts from. */
export interface WorktreeRequest {
  repo: string;
  path: string;
  branch: string;
  /** A commit-ish; the repository's HEAD when absent. */
  base?: string | undefined;
  /** The worktree root `path` is under: no folder between it and `path` may be a symbolic link. */
  root?: string | undefined;
}

/**
 * A worktree that was made: its branch and the base it started from (the branch of HEAD, or the commit, when none was
 * named).
 */
export interface MadeWorktree {
  path: string;
  branch: string;
  base: string;
}

/** A git failure, with git's own message. */
export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitError';
  }
}

/**
 * Runs `git` in `cwd`, one command at a time per repository in this process: git's `index.lock`
 * makes concurrent `worktree add` calls on one repository fail. A lock held by another process is
 * waited out (a few tries).
 */
export function runGit(repo: string, args: readonly string[], cwd = repo): Promise<GitResult> {
  const previous = queues.get(repo) ?? Promise.resolve();
  const next = previous.then(() => runRetrying(args, cwd));
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(repo, settled);
  void settled.then(() => queues.get(repo) === settled && queues.delete(repo));
  return next;
}

/** How many names a worktree's branch may take: the template's, then `-2` to `-9` after it while those are taken. */
export const BRANCH_CANDIDATES = 9;

/**
 * `git worktree add -b <branch> <path> <base>`. A branch name already taken (by a branch made by
 * hand, or by another svc root with the same template) is not an error: the next free one of
 * `<branch>-2` ... `<branch>-9` is used (`MadeWorktree.branch` says which). Throws `GitError` with
 * git's message otherwise (not a repository, base missing, path taken, disk full, every name taken).
 */
export async function addWorktree(request: WorktreeRequest): Promise<MadeWorktree> {
  const { repo, path, branch } = request;
  if (
    !(await stat(repo).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    throw new GitError(`the repository ${repo} does not exist (or is not a directory)`);
  const base = request.base ?? (await currentBase(repo));
  const found = await runGit(repo, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`]);
  if (!found.ok)
    throw new GitError(
      `base ${JSON.stringify(base)} is not a commit of ${repo}${found.stderr ? `: ${found.stderr}` : ''}`,
    );
  await assertNoLink(path, request.root);
  await mkdir(dirname(path), { recursive: true });
  await assertNoLink(path, request.root); // a link planted while the folders were made
  for (let n = 1; n <= BRANCH_CANDIDATES; n++) {
    const name = n === 1 ? branch : `${branch}-${n}`;
    if ((await runGit(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${name}`])).ok) continue;
    const made = await runGit(repo, ['worktree', 'add', '-b', name, path, base]);
    if (made.ok) return { path, branch: name, base };
    // made meanwhile by another process: not ours to delete
    if (/a branch named '.*' already exists/.test(made.stderr)) continue;
    await runGit(repo, ['branch', '-D', name]); // a branch made before the failure is not left behind
    throw new GitError(`git worktree add -b ${name} ${path} ${base} failed: ${toMessage(made.stderr || made.stdout)}`);
  }
  throw new GitError(
    `branches ${branch} and ${branch}-2 to ${branch}-${BRANCH_CANDIDATES} ` +
      `all exist already in ${repo}: the workspace's branch ` +
      `template makes names others use too; put {root} in it (the ` +
      `default is "svc/{root}/{id}"), or delete those branches`,
  );
}

/** `clean`, `dirty` (uncommitted changes or untracked files) or `missing` (no worktree there). */
export async function worktreeState(repo: string, path: string): Promise<'clean' | 'dirty' | 'missing'> {
  const status = await runGit(repo, ['status', '--porcelain', '--untracked-files=all'], path).catch(() => null);
  if (!status?.ok) return 'missing';
  return status.stdout.trim() ? 'dirty' : 'clean';
}

/** How a worktree is removed: `force` drops uncommitted changes; `root` is the worktree root it was made under. */
export interface RemoveOptions {
  force?: boolean | undefined;
  root?: string | undefined;
}

/**
 * `git worktree remove [--force] <path>`: the branch stays. Refused when the path (or a folder under `root` on its way)
 * is a symbolic link.
 */
export async function removeWorktree(repo: string, path: string, options: RemoveOptions = {}): Promise<void> {
  const force = options.force === true;
  await assertNoLink(path, options.root);
  const removed = await runGit(repo, ['worktree', 'remove', ...(force ? ['--force'] : []), path]);
  if (!removed.ok)
    throw new GitError(`git worktree remove ${path} failed: ${toMessage(removed.stderr || removed.stdout)}`);
}

// --- internal ---

async function assertNoLink(path: string, root: string | undefined): Promise<void> {
  const why = await findLinkOnTheWay(path, root);
  if (why) throw new GitError(why);
}

const queues = new Map<string, Promise<void>>();
const LOCK_RETRIES_MS = [100, 200, 400, 800, 1600];

/** git's errors on one line: its `fatal:`/`error:` lines when there are any, else all it said. */
function toMessage(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const errors = lines.filter((line) => /^(fatal|error):/.test(line));
  return (errors.length ? errors : lines).join('; ');
}

async function runRetrying(args: readonly string[], cwd: string): Promise<GitResult> {
  for (let attempt = 0; ; attempt++) {
    const result = await run(args, cwd);
    const pause = LOCK_RETRIES_MS[attempt];
    if (result.ok || pause === undefined || !/\.lock'?: File exists|index\.lock/.test(result.stderr)) return result;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

function run(args: readonly string[], cwd: string): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', [...args], { cwd, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({
        ok: !err,
        stdout: String(stdout),
        stderr: String(stderr).trim() || (err && !('code' in err && typeof err.code === 'number') ? err.message : ''),
      });
    });
  });
}

async function currentBase(repo: string): Promise<string> {
  const branch = await runGit(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (branch.ok && branch.stdout.trim()) return branch.stdout.trim();
  const head = await runGit(repo, ['rev-parse', '--verify', 'HEAD']);
  if (!head.ok) throw new GitError(`${repo} has no HEAD commit to start a worktree from: ${head.stderr}`);
  return head.stdout.trim();
}
