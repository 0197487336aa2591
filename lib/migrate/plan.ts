import { lstat } from 'node:fs/promises';
import { relative } from 'node:path';
import { TASK_SCHEMA_VERSION, toSchemaVersion } from '../core/schema-version.js';
import { STATUSES } from '../core/status.js';
import { parseTask } from '../core/task.js';
import { parseFrontmatter } from '../fs/frontmatter.js';
import type { Paths } from '../store/disk/paths.js';
import { listNames } from '../store/commit/store.js';
import { readStamped, renderTask, type FileStamp } from '../store/disk/task-file.js';
import { MIGRATIONS } from './steps.js';
import { describeError } from '../core/errors.js';

/** How every file svc writes begins (`schemaVersion` is the first key). */
const CURRENT_PREFIX = `---\nschemaVersion: ${TASK_SCHEMA_VERSION}\n`;

/** One task file to migrate: where it is, from which version to which, each change, and the new text. */
export interface FileMigration {
  /** Relative to the root (`tasks/<status>/<id>.md`). */
  file: string;
  id: string;
  from: number;
  to: number;
  changes: string[];
  /** The file as read (kept as the backup) and as it will be written. */
  before: string;
  after: string;
  stamp: FileStamp;
}

/** What `svc migrate` would do: files to migrate, files written by a newer svc, files it cannot fix. */
export interface MigrationPlan {
  version: number;
  files: FileMigration[];
  newer: { file: string; version: number }[];
  failed: { file: string; reason: string }[];
}

/** Reads every task file and plans the steps each one needs (nothing is written). */
export async function planMigrations(paths: Paths): Promise<MigrationPlan> {
  const plan: MigrationPlan = { version: TASK_SCHEMA_VERSION, files: [], newer: [], failed: [] };
  for (const [id, statuses] of await listNames(paths)) {
    for (const status of statuses) {
      const path = paths.taskFile(status, id);
      const file = relative(paths.root, path);
      const found = await planFile(path, { file, id, status }).catch((err: unknown) => ({
        reason: `cannot be read as a task file: ${toReason(err, file)}`,
      }));
      if (!found) continue;
      if ('newer' in found) plan.newer.push({ file, version: found.newer });
      else if ('reason' in found) plan.failed.push({ file, reason: found.reason });
      else plan.files.push(found);
    }
  }
  for (const list of [plan.files, plan.newer, plan.failed])
    list.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return plan;
}

/** Which task file is planned: its path under the root, its task's id and the status folder it is in. */
export interface PlannedFile {
  file: string;
  id: string;
  status: (typeof STATUSES)[number];
}

/** Plans one file again (under its lock, before it is written): null when it needs nothing now. */
export async function planFile(
  path: string,
  { file, id, status }: PlannedFile,
): Promise<FileMigration | { newer: number } | { reason: string } | null> {
  const { text, stamp } = await readStamped(path);
  if (text.startsWith(CURRENT_PREFIX)) return null; // what svc writes: no YAML to parse on the daemon's start
  // a Markdown file alone: every field from its defaults
  const parsed = hasFrontmatter(text) ? parseFrontmatter(text, file) : { data: {}, body: text.replace(/^\uFEFF/, '') };
  const from = toSchemaVersion(parsed.data);
  if (from === null)
    return { reason: `schemaVersion ${JSON.stringify(parsed.data.schemaVersion)} is not a version number` };
  if (from === TASK_SCHEMA_VERSION) return null; // no step changes it; svc doctor reports it if it is invalid
  if (from > TASK_SCHEMA_VERSION) return { newer: from };
  const data = { ...parsed.data };
  const mtime = (await lstat(path)).mtime;
  const changes = MIGRATIONS.filter((step) => step.version > from).flatMap((step) =>
    step.apply(data, { id, status, mtime, body: parsed.body }),
  );
  try {
    const after = renderTask(parseTask(data, file), parsed.body, file);
    return { file, id, from, to: TASK_SCHEMA_VERSION, changes, before: text, after, stamp };
  } catch (err) {
    return { reason: `still invalid after the migration: ${toReason(err, file)}` };
  }
}

// --- internal ---

/**
 * A file that does not begin with a `---` line has no frontmatter at all (the commonest hand-written task); `---js` and
 * the like do.
 */
function hasFrontmatter(text: string): boolean {
  return /^\uFEFF?---/.test(text);
}

function toReason(err: unknown, file: string): string {
  return describeError(err)
    .replace(`${file}: `, '')
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ');
}
