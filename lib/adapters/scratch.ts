import { mkdirSync, readdirSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { toPaths } from '../store/disk/paths.js';

/**
 * Makes the directory a local agent's run without a worktree works in,
 * `data/scratch/<task id>/<session>/`, so its relative writes stay out of the svc root.
 */
export function makeScratchDir(root: string, taskId: string, sessionId: string): string {
  const dir = toPaths(root).scratchDir(taskId, sessionId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * Removes a run's scratch directory once the run ended, when the agent left nothing in it (and
 * the task's folder when no other run's is left); one the agent wrote into is kept for the operator.
 * Returns whether it was kept.
 */
export function endScratchDir(dir: string): boolean {
  if (!removeIfEmpty(dir)) return true;
  removeIfEmpty(dirname(dir));
  return false;
}

// --- internal ---

function removeIfEmpty(dir: string): boolean {
  try {
    if (readdirSync(dir).length) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return true; // gone already, or filled meanwhile by another run (ENOTEMPTY): nothing of this run to keep
  }
}
