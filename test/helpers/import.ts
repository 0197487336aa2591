import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { svc } from './cli.js';
import { tempRoot } from './root.js';

/** A copy of a fixture of test/import/fixtures/ in a temp directory (tests change their source). */
export function copyFixture(name: string): string {
  const dir = join(tempRoot(), name);
  cpSync(new URL(`../import/fixtures/${name}`, import.meta.url).pathname, dir, { recursive: true });
  return dir;
}

/** One item of an import report. */
export interface ReportItem {
  sourceId: string;
  action: string;
  id?: string;
  reason?: string;
  dangling: string[];
  file: string;
}

/** Runs `svc import <args> --json` in `root`; the exit code and the parsed report. */
export async function importJson(
  root: string,
  ...args: string[]
): Promise<{
  code: number;
  report: { items: ReportItem[]; summary: Record<string, number>; problems: { file: string; reason: string }[] };
  stderr: string;
}> {
  const out = await svc(root, 'import', ...args, '--json');
  if (!out.stdout) throw new Error(`svc import failed: ${out.stderr}`);
  return { code: out.code, report: JSON.parse(out.stdout), stderr: out.stderr };
}

/** The svc id of each source id. */
export function toIds(items: readonly ReportItem[]): Record<string, string> {
  return Object.fromEntries(items.filter((item) => item.id).map((item) => [item.sourceId, item.id!]));
}

/** The task files of a root by id: status, raw text, and the body after the frontmatter. */
export function readTasks(root: string): Record<string, { status: string; text: string; body: string }> {
  const out: Record<string, { status: string; text: string; body: string }> = {};
  for (const status of readdirSync(join(root, 'tasks')).filter((name) => !name.startsWith('.'))) {
    for (const name of readdirSync(join(root, 'tasks', status)).filter((n) => n.endsWith('.md'))) {
      const text = readFileSync(join(root, 'tasks', status, name), 'utf8');
      const at = text.indexOf('\n---\n') + 5;
      out[name.slice(0, -3)] = { status, text, body: text.slice(at).replace(/^\n/, '') };
    }
  }
  return out;
}

/** Counts tasks per status. */
export function countByStatus(tasks: Record<string, { status: string }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { status } of Object.values(tasks)) out[status] = (out[status] ?? 0) + 1;
  return out;
}
