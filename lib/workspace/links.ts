import { lstat, readlink } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { readAnyRecord } from './records.js';

/**
 * Why svc must not make, use or remove a worktree at `path`, or null: `path`, or a folder between
 * the worktree root and it, is a symbolic link (a worktree made through one lands outside the root,
 * and its removal at done deletes a folder out there), or `path` is outside `root`. The root itself
 * may be a link (an operator's choice, such as a folder on another disk). Without `root`, only
 * `path` itself is looked at (a worktree named in a task by hand). Entries not there yet are fine.
 */
export async function findLinkOnTheWay(path: string, root?: string): Promise<string | null> {
  const target = resolve(path);
  if (root === undefined) return describeLinkAt(target);
  const rel = relative(resolve(root), target);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return `${path} is not inside the worktree root ${root}`;
  let at = resolve(root);
  for (const part of rel.split(/[\\/]/)) {
    at = join(at, part);
    const why = await describeLinkAt(at);
    if (why) return why;
  }
  return null;
}

/**
 * `findLinkOnTheWay` for a task's worktree: under the root svc made it in when svc made it (its record), else the path
 * itself.
 */
export async function findTaskWorktreeLink(recordsDir: string, taskId: string, path: string): Promise<string | null> {
  const made = await readAnyRecord(recordsDir, taskId);
  return findLinkOnTheWay(path, made?.path === path ? made.root : undefined);
}

// --- internal ---

async function describeLinkAt(at: string): Promise<string | null> {
  const found = await lstat(at).catch(() => null);
  if (!found?.isSymbolicLink()) return null;
  const target = await readlink(at).catch(() => null);
  return (
    `${at} is a symbolic link${target === null ? '' : ` to ${target}`}: svc never makes, uses or ` +
    `removes a worktree through a link (remove the link; the worktree then goes to a real folder there)`
  );
}
