import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { checkBranchTemplate, checkDirTemplate } from '../core/branch-template.js';
import { CHECK_AGENT } from '../core/spawn.js';
import { toDidYouMean } from '../core/suggest.js';
import { asRecord, recordsOf, type Problem } from './problems.js';
import type { WorkspaceDef } from './schema.js';

/** What `checkWorkspaces` looks at besides the chart itself. */
export interface WorkspaceCheckOptions {
  /** Also whether each `repo` is a git repository now (`svc org validate`, `svc doctor`). */
  repos?: boolean | undefined;
}

/** A workspace that cannot be used now, and why. */
export interface UnavailableWorkspace {
  name: string;
  problem: string;
}

/**
 * Problems of `aof.workspaces` and of what names them (docs/workspaces.md): a `repo` that is not an
 * absolute path, a `root` that is not absolute, a `branch` template that makes an invalid ref, a
 * `dir` template that could leave `root`, an agent naming an unknown workspace; with `repos`, a
 * `repo` that is not a git repository. Works on raw data (beside the schema), so one run lists
 * everything. Without `repos` the chart stays usable while a repository is missing: only the tasks
 * of that workspace wait (`findUnavailableWorkspaces`).
 */
export function checkWorkspaces(data: unknown, options: WorkspaceCheckOptions = {}): Problem[] {
  const aof = asRecord(asRecord(data)?.aof);
  const workspaces = asRecord(aof?.workspaces) ?? {};
  const problems = Object.entries(workspaces).flatMap(([name, def]) =>
    checkWorkspace(`aof.workspaces.${name}`, asRecord(def) ?? {}, { repos: options.repos === true }),
  );
  const names = Object.keys(workspaces);
  for (const [i, agent] of recordsOf(asRecord(data)?.agents)) {
    if (agent.id === CHECK_AGENT)
      problems.push({
        path: `agents[${i}].id`,
        problem:
          `"${CHECK_AGENT}" is reserved: the daemon holds a task's ` +
          `lease under that name while it runs the task's checks`,
      });
    if (typeof agent.workspace === 'string' && !names.includes(agent.workspace))
      problems.push({ path: `agents[${i}].workspace`, problem: unknownWorkspace(agent.workspace, names) });
  }
  return problems;
}

/** `unknown workspace "x" (known: a, b). Did you mean "a"?` */
export function unknownWorkspace(name: string, known: readonly string[]): string {
  return (
    `unknown workspace ${JSON.stringify(name)} (known workspaces: ` +
    `${known.length ? known.join(', ') : 'none declared under aof.workspaces'}).${toDidYouMean(name, known)}`
  );
}

/**
 * The workspaces of a chart whose repository is not there now (deleted, moved, not a git repository), with why: the
 * planner holds their tasks.
 */
export function findUnavailableWorkspaces(
  org: { aof: { workspaces: Record<string, Pick<WorkspaceDef, 'repo'>> } } | null,
): UnavailableWorkspace[] {
  return Object.entries(org?.aof.workspaces ?? {}).flatMap(([name, def]) => {
    const problem = whyNotRepo(def.repo);
    return problem ? [{ name, problem: `aof.workspaces.${name}.repo: ${problem}` }] : [];
  });
}

/** The folder worktrees of a workspace go under: its `root` (`~/` expanded), else `<svc root>/worktrees`. */
export function toWorktreeRoot(def: Pick<WorkspaceDef, 'root'>, svcRoot: string): string {
  if (!def.root) return join(svcRoot, 'worktrees');
  return def.root.startsWith('~/') ? join(homedir(), def.root.slice(2)) : def.root;
}

// --- internal ---

function checkWorkspace(path: string, def: Record<string, unknown>, { repos }: { repos: boolean }): Problem[] {
  const problems: Problem[] = [];
  if (typeof def.repo === 'string' && def.repo) {
    const why = repos || !isAbsolute(def.repo) ? whyNotRepo(def.repo) : null;
    if (why) problems.push({ path: `${path}.repo`, problem: why });
  }
  if (typeof def.root === 'string' && def.root && !isAbsolute(def.root) && !def.root.startsWith('~/')) {
    problems.push({
      path: `${path}.root`,
      problem: `must be an absolute path or start with ~/ (found ${JSON.stringify(def.root)})`,
    });
  }
  if (typeof def.branch === 'string')
    for (const problem of checkBranchTemplate(def.branch)) problems.push({ path: `${path}.branch`, problem });
  const root = typeof def.root === 'string' && isAbsolute(def.root) ? def.root : '/worktrees';
  if (typeof def.dir === 'string')
    for (const problem of checkDirTemplate(def.dir, root)) problems.push({ path: `${path}.dir`, problem });
  return problems;
}

function whyNotRepo(repo: string): string | null {
  if (!isAbsolute(repo)) return `must be an absolute path to a git repository (found ${JSON.stringify(repo)})`;
  if (!isDirectory(repo)) return `${repo} is not a directory`;
  if (exists(join(repo, '.git')) || (isDirectory(join(repo, 'objects')) && exists(join(repo, 'HEAD')))) return null;
  return `${repo} is not a git repository (no .git in it; run git init there, or name the repository's top folder)`;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
