// Where Codex keeps a thread: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl` (CODEX_HOME defaults
// to `~/.codex`), one JSON object a line, with a `token_count` event after each model response.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodexTokens } from './codex-stream.js';
import type { SessionPlace } from './runtime.js';

/** Codex's home folder for a run: `CODEX_HOME` of its environment, else `.codex` in the user's home. */
export function codexHome(where: Pick<SessionPlace, 'home' | 'env'>): string {
  return where.env.CODEX_HOME || join(where.home, '.codex');
}

/** The rollout file of a thread, or null when Codex no longer has it. */
export function findCodexRollout(home: string, id: string): string | null {
  if (!/^[0-9A-Za-z-]+$/.test(id)) return null;
  return findFile(join(home, 'sessions'), `-${id}.jsonl`, 3);
}

/** The thread's token total so far (its last `token_count`), or none when it has no rollout or no count yet. */
export function codexBaseline(home: string, id: string): CodexTokens {
  const file = findCodexRollout(home, id);
  if (!file) return {};
  let total: CodexTokens = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"token_count"')) continue;
    try {
      const payload = (JSON.parse(line) as { payload?: { type?: string; info?: { total_token_usage?: unknown } } })
        .payload;
      const usage = payload?.type === 'token_count' ? payload.info?.total_token_usage : undefined;
      if (usage && typeof usage === 'object') total = usage as CodexTokens;
    } catch {
      // a torn last line of a thread still being written
    }
  }
  return total;
}

// --- internal ---

/** A file named `rollout-...<suffix>` `depth` folders below `dir`. */
function findFile(dir: string, suffix: string, depth: number): string | null {
  if (!existsSync(dir)) return null;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (depth === 0 && entry.isFile() && entry.name.startsWith('rollout-') && entry.name.endsWith(suffix)) return path;
    if (depth > 0 && entry.isDirectory()) {
      const found = findFile(path, suffix, depth - 1);
      if (found) return found;
    }
  }
  return null;
}
