import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** How svc removed a worktree it had created: when and why, kept in `data/workspaces/removed/<task id>.json`. */
export interface Removal {
  path: string;
  branch: string;
  /** When svc removed it. */
  at: string;
  /** Why: `task cancelled`, `task done`, `svc task workspace --remove`. */
  reason: string;
}

/** The removal of the worktree svc created for a task at `path`, or null (not removed by svc, or another worktree). */
export async function readRemoval(dir: string, taskId: string, path: string): Promise<Removal | null> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, `${taskId}.json`), 'utf8')) as {
      path?: unknown;
      branch?: unknown;
      removed?: { at?: unknown; reason?: unknown };
    };
    const { at, reason } = parsed.removed ?? {};
    if (parsed.path !== path || typeof at !== 'string' || typeof reason !== 'string') return null;
    return { path, branch: String(parsed.branch ?? ''), at, reason };
  } catch {
    return null;
  }
}

/** `removed by svc at <time> (<why>)`: what `svc task workspace` and `svc task show` say of it. */
export function formatRemoval(removal: Removal): string {
  return `removed by svc at ${removal.at} (${removal.reason})`;
}
