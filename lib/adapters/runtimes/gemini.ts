import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { geminiHomeOf, geminiInvocation } from './gemini-invocation.js';
import { geminiParser } from './gemini-stream.js';
import type { Runtime, SessionPlace } from './runtime.js';

/** The gemini runtime (docs/agent-runtimes.md): Gemini CLI in headless mode with stream-json output. */
export const gemini: Runtime = {
  name: 'gemini',
  defaultBin: 'gemini',
  invocation: geminiInvocation,
  parser: geminiParser,
  hasSession: hasGeminiSession,
};

// --- internal ---

/**
 * Whether Gemini CLI still keeps session `id` for the work directory: its home is `GEMINI_CLI_HOME` (else the one svc
 * gives it in the agent's directory for the task, else HOME),
 * `.gemini/projects.json` names each directory's project, and a session is `tmp/<project>/chats/session-<time>-<id8>`
 * whose first line holds its whole id.
 */
function hasGeminiSession(where: SessionPlace, id: string): boolean {
  const home = where.env.GEMINI_CLI_HOME || (where.stateDir ? geminiHomeOf(where.stateDir) : where.home);
  const dir = join(home, '.gemini');
  const project = projectOf(dir, where.cwd);
  if (!project || !/^[0-9a-f-]{8,}$/i.test(id)) return false;
  const chats = join(dir, 'tmp', project, 'chats');
  let names: string[];
  try {
    names = readdirSync(chats);
  } catch {
    return false;
  }
  const suffix = `-${id.slice(0, 8)}`;
  return names
    .filter((name) => /^session-.*\.jsonl?$/.test(name) && name.replace(/\.jsonl?$/, '').endsWith(suffix))
    .some((name) => firstLine(join(chats, name)).includes(`"sessionId":"${id}"`));
}

function projectOf(dir: string, cwd: string): string | undefined {
  try {
    const registry = JSON.parse(readFileSync(join(dir, 'projects.json'), 'utf8')) as { projects?: unknown };
    const projects = (registry.projects ?? {}) as Record<string, unknown>;
    const project = projects[resolve(cwd)] ?? projects[realPath(cwd)];
    return typeof project === 'string' && /^[^/\\]+$/.test(project) && project !== '..' ? project : undefined;
  } catch {
    return undefined;
  }
}

/** The CLI keys projects by its process's working directory, which has symlinks resolved. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function firstLine(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n', 1)[0] ?? '';
  } catch {
    return '';
  }
}
