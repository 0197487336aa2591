import { mkdirSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toStorableText } from '../core/text.js';

/**
 * The largest brief also given in `SVC_TASK_BRIEF` (64 KiB). Linux caps one environment string at
 * 128 KiB and all of them with the arguments at a quarter of the stack; a longer brief is read
 * from `SVC_TASK_BRIEF_FILE` only, and `SVC_TASK_BRIEF` says so.
 */
export const BRIEF_ENV_MAX_BYTES = 64 * 1024;

/**
 * Writes the brief of a run to `<dir>/<task id>@<session>`, private (mode 0600 in a 0700
 * directory), and returns its path. A file left by an earlier try under that name is replaced.
 */
export function writeBriefFile(dir: string, run: { taskId: string; sessionId: string }, body: string): string {
  const { taskId, sessionId } = run;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = toBriefPath(dir, taskId, sessionId);
  removeBriefFile(dir, taskId, sessionId);
  writeFileSync(path, body, { mode: 0o600, flag: 'wx' });
  return path;
}

/** Removes the brief of a run (gone already is fine). */
export function removeBriefFile(dir: string, taskId: string, sessionId: string): void {
  try {
    unlinkSync(toBriefPath(dir, taskId, sessionId));
  } catch {
    // none was written, or it is gone
  }
}

/** Removes the briefs of runs not in `live` (`<task id>@<session>`): those a killed daemon left. */
export function removeStaleBriefs(dir: string, live: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const at = name.indexOf('@');
    if (at > 0 && !live.has(name)) removeBriefFile(dir, name.slice(0, at), name.slice(at + 1));
  }
}

/** `SVC_TASK_BRIEF`: the brief when it fits (`BRIEF_ENV_MAX_BYTES`, a NUL escaped), else where to read it. */
export function toBriefEnv(body: string, path: string): string {
  const text = toStorableText(body);
  if (Buffer.byteLength(text) <= BRIEF_ENV_MAX_BYTES) return text;
  return (
    `(the brief has ${Buffer.byteLength(body)} bytes, more than an environment ` +
    `variable holds here: read it from the file $SVC_TASK_BRIEF_FILE, ${path})`
  );
}

// --- internal ---

function toBriefPath(dir: string, taskId: string, sessionId: string): string {
  return join(dir, `${taskId}@${sessionId}`);
}
