import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where a run's CLI looks: the home it runs with, its working directory, its environment. */
export interface SessionPlace {
  home: string;
  cwd: string;
  env: Record<string, string | undefined>;
}

/**
 * Whether Claude Code still has a session's transcript: `<config>/projects/<project>/<id>.jsonl`, where the config
 * directory is `CLAUDE_CONFIG_DIR`, else `.claude` in the home. The project is the working directory as a slug; a
 * session of another directory counts too (`--resume <id>` finds it from any directory).
 */
export function hasClaudeSession(where: SessionPlace, id: string): boolean {
  if (!SESSION_ID.test(id)) return false;
  const projects = join(where.env.CLAUDE_CONFIG_DIR || join(where.home, '.claude'), 'projects');
  const file = `${id}.jsonl`;
  if (existsSync(join(projects, toProjectSlug(where.cwd), file))) return true;
  return listDirs(projects).some((dir) => existsSync(join(projects, dir, file)));
}

// --- internal ---

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Claude Code's folder name for a working directory: every character but a letter or digit becomes `-`. */
function toProjectSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

function listDirs(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
