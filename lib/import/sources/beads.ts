import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { SvcError } from '../../core/errors.js';
import type { Priority } from '../../core/priority.js';
import type { Status } from '../../core/status.js';
import type { ImportSource, SourceRead, SourceRecord } from './record.js';
import { readSourceFile, toIsoTime, toReason, toStrings } from './read.js';

/** beads statuses -> svc (docs/moving-in-and-out.md); a run never survives a move, so in_progress comes in as ready. */
const STATUS: Record<string, Status> = {
  open: 'backlog',
  in_progress: 'ready',
  blocked: 'blocked',
  deferred: 'backlog',
  pinned: 'backlog',
  hooked: 'backlog',
  closed: 'done',
};
/** Marks a refusal that is no problem: a deleted issue, skipped as documented. */
const TOMBSTONE = 'tombstone:';
/** beads priorities 0 (highest) to 4 -> svc. */
const PRIORITY: readonly Priority[] = ['critical', 'high', 'normal', 'low', 'low'];

/**
 * `svc import beads <dir>`: a beads project's `.beads/issues.jsonl` (the directory holding `.beads/`, `.beads/` itself,
 * or the file).
 */
export const beadsSource: ImportSource = {
  system: 'beads',
  expects: 'a beads project (a directory with .beads/issues.jsonl)',
  async read(path) {
    const file = await toIssuesFile(path);
    const text = await readSourceFile(file, this.expects, file === path ? undefined : path);
    const out: SourceRead = { records: [], problems: [], skipped: [] };
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      const where = `${file}:${i + 1}`;
      try {
        const record = toRecord(JSON.parse(line) as Record<string, unknown>, where);
        if (typeof record !== 'string') out.records.push(record);
        else if (record.startsWith(TOMBSTONE))
          out.skipped!.push({ file: where, reason: record.slice(TOMBSTONE.length) });
        else out.problems.push({ file: where, reason: record });
      } catch (err) {
        out.problems.push({ file: where, reason: `not a JSON line (${toReason(err)})` });
      }
    });
    return out;
  },
};

// --- internal ---

async function toIssuesFile(path: string): Promise<string> {
  const isDir = (await stat(path).catch(() => null))?.isDirectory() === true;
  if (!isDir) return path;
  const file = basename(path) === '.beads' ? join(path, 'issues.jsonl') : join(path, '.beads', 'issues.jsonl');
  if (!(await stat(file).catch(() => null))?.isFile())
    throw new SvcError(
      'validation_error',
      `${path} is not a beads project: ${file} is not a file.`,
      'Give the directory that holds .beads/ (beads writes .beads/issues.jsonl; ' +
        'run `bd export` or `bd sync` there first if it is missing).',
    );
  return file;
}

/** A record, or why the line is refused. */
function toRecord(issue: Record<string, unknown>, where: string): SourceRecord | string {
  if (
    !issue ||
    typeof issue !== 'object' ||
    typeof issue.id !== 'string' ||
    !issue.id ||
    typeof issue.title !== 'string'
  )
    return 'expected an issue with a string `id` and `title`';
  const state = typeof issue.status === 'string' ? issue.status : 'open';
  if (state === 'tombstone') return `${TOMBSTONE}${issue.id} is deleted in beads (tombstone): not imported`;
  const status = Object.hasOwn(STATUS, state) ? STATUS[state] : undefined;
  if (!status)
    return `${issue.id}: unknown status ${JSON.stringify(state)}; expected one of ${Object.keys(STATUS).join(', ')}`;
  const deps = Array.isArray(issue.dependencies) ? (issue.dependencies as Record<string, unknown>[]) : [];
  const on = (types: (string | undefined)[]) =>
    deps
      .filter(
        (dep) =>
          dep &&
          types.includes(typeof dep.type === 'string' ? dep.type : undefined) &&
          typeof dep.depends_on_id === 'string',
      )
      .map((dep) => dep.depends_on_id as string);
  const parent = on(['parent-child'])[0];
  const related = on(['related', 'relates_to', 'discovered-from', 'tracks']);
  const priority = Number.isInteger(issue.priority)
    ? PRIORITY[Math.min(4, Math.max(0, issue.priority as number))]
    : undefined;
  const extra: Record<string, unknown> = {};
  for (const key of [
    'issue_type',
    'assignee',
    'design',
    'acceptance_criteria',
    'notes',
    'close_reason',
    'closed_at',
  ] as const)
    if (issue[key] !== undefined && issue[key] !== null && issue[key] !== '') extra[key] = issue[key];
  if (related.length) extra.related = related;
  const createdAt = toIsoTime(issue.created_at);
  return {
    sourceId: issue.id,
    file: where,
    title: issue.title,
    body: typeof issue.description === 'string' ? issue.description : '',
    status,
    ...(priority ? { priority } : {}),
    tags: toStrings(issue.labels),
    dependsOn: on(['blocks', undefined]),
    ...(parent ? { parentId: parent } : {}),
    ...(createdAt ? { createdAt } : {}),
    extra,
  };
}
