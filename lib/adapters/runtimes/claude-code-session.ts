import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where a run's CLI looks: the home it runs with, its working directory, its environment. */
export interface SessionPlace {
  home: string;
  cwd: string;
  env: Record<string, string | undefined>;
}

/**
 * Whether Claude Code still has a session's transcript: `<config>/projects/<cwd as a slug>/<id>.jsonl`, where the
 * config directory is `CLAUDE_CONFIG_DIR`, else `.claude` in the home. `--resume` looks there for the working
 * directory the run has, so a session of another directory does not count.
 */
export function hasClaudeSession(where: SessionPlace, id: string): boolean {
  if (!SESSION_ID.test(id)) return false;
  const config = where.env.CLAUDE_CONFIG_DIR || join(where.home, '.claude');
  const projects = join(config, 'projects');
  const slug = toProjectSlug(where.cwd);
  if (existsSync(join(projects, slug, `${id}.jsonl`))) return true;
  if (slug.length <= MAX_SLUG) return false;
  // a long directory's slug is cut and given a hash suffix: any folder with the cut prefix may be it
  const prefix = slug.slice(0, MAX_SLUG);
  return listDirs(projects).some((dir) => dir.startsWith(prefix) && existsSync(join(projects, dir, `${id}.jsonl`)));
}

/** Claude Code's folder name for a working directory: every character but a letter or digit becomes `-`. */
export function toProjectSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

// --- internal ---

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

const MAX_SLUG = 200;

function listDirs(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
