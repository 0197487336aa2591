import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { hasCode, SvcError } from '../../core/errors.js';
import type { Status } from '../../core/status.js';
import { parseFrontmatter, parseYaml } from '../../fs/frontmatter.js';
import type { ImportSource, SourceRead, SourceRecord } from './record.js';
import { readSourceFile, toIsoTime, toPriority, toReason, toStrings } from './read.js';

/**
 * `svc import backlog-md <dir>`: a Backlog.md project (`backlog/tasks/*.md`, statuses from
 * `backlog/config.yml`). Statuses map by name (docs/moving-in-and-out.md); `--status-map`
 * overrides any of them.
 */
export const backlogMdSource: ImportSource = {
  system: 'backlog-md',
  expects: 'a Backlog.md project (a directory with backlog/tasks/*.md)',
  async read(path, options) {
    const dir = basename(path) === 'backlog' ? path : join(path, 'backlog');
    const tasksDir = join(dir, 'tasks');
    if (!(await stat(tasksDir).catch(() => null))?.isDirectory())
      throw new SvcError(
        'validation_error',
        `${path} is not a Backlog.md project: ${tasksDir} is not a directory.`,
        `Give the directory that holds backlog/ (expected ${this.expects}).`,
      );
    const out: SourceRead = { records: [], problems: [] };
    const statuses = await readStatuses(join(dir, 'config.yml'), path, out);
    const map = { ...toDefaultMap(statuses), ...options.statusMap };
    for (const name of (await readdir(tasksDir)).filter((n) => n.endsWith('.md')).sort()) {
      const file = join(tasksDir, name);
      try {
        out.records.push(
          toRecord(parseFrontmatter(await readSourceFile(file, 'a task file', path), file), file, { map, statuses }),
        );
      } catch (err) {
        out.problems.push({ file, reason: toReason(err).replace(`${file}: `, '') });
      }
    }
    return out;
  },
};

// --- internal ---

/** The statuses of backlog/config.yml; Backlog.md's defaults when it is absent, or refused (a link, reported). */
async function readStatuses(path: string, tree: string, out: SourceRead): Promise<string[]> {
  const text = await readSourceFile(path, 'backlog/config.yml', tree).catch((err: unknown) => {
    if (!hasCode(err, 'not_found'))
      out.problems.push({
        file: path,
        reason: `${toReason(err).replace(`${path} `, '')}; Backlog.md's default statuses used`,
      });
    return null;
  });
  if (text === null) return ['To Do', 'In Progress', 'Done']; // Backlog.md's own defaults
  const config = parseYaml(text, path) as { statuses?: unknown } | null;
  const statuses = toStrings(config?.statuses);
  return statuses.length ? statuses : ['To Do', 'In Progress', 'Done'];
}

/**
 * By name: done -> done, "in progress" -> ready, blocked -> blocked, anything else -> backlog; the last configured
 * status is done.
 */
function toDefaultMap(statuses: readonly string[]): Record<string, Status> {
  const out: Record<string, Status> = {};
  statuses.forEach((name, i) => {
    const word = name.trim().toLowerCase();
    out[name] =
      word === 'done' || i === statuses.length - 1
        ? 'done'
        : /progress|doing/.test(word)
          ? 'ready'
          : /block/.test(word)
            ? 'blocked'
            : 'backlog';
  });
  return out;
}

/** The record of a task file; `config`: the status map and backlog/config.yml's statuses. */
function toRecord(
  parsed: { data: Record<string, unknown>; body: string },
  file: string,
  config: { map: Record<string, Status>; statuses: readonly string[] },
): SourceRecord {
  const { map, statuses } = config;
  const { data, body } = parsed;
  const id = typeof data.id === 'string' || typeof data.id === 'number' ? String(data.id) : '';
  if (!id || typeof data.title !== 'string') throw new Error('expected frontmatter with `id` and `title`');
  const name = typeof data.status === 'string' ? data.status : '';
  const status = Object.hasOwn(map, name) ? map[name] : undefined;
  if (!status)
    throw new Error(
      `status ${JSON.stringify(name)} is not one of backlog/config.yml's statuses ` +
        `(${statuses.join(', ')}); map it with --status-map "${name}=backlog"`,
    );
  const priority = toPriority(data.priority);
  const createdAt = toIsoTime(data.created_date);
  const extra: Record<string, unknown> = { status: name };
  for (const key of ['assignee', 'milestone', 'reporter', 'updated_date'] as const)
    if (
      data[key] !== undefined &&
      data[key] !== null &&
      !(Array.isArray(data[key]) && !(data[key] as unknown[]).length)
    )
      extra[key] = data[key];
  const parent = data.parent_task_id ?? data.parent;
  return {
    sourceId: id,
    file,
    title: data.title,
    body,
    status,
    ...(priority ? { priority } : {}),
    tags: toStrings(data.labels),
    dependsOn: toStrings(data.dependencies),
    ...(typeof parent === 'string' && parent ? { parentId: parent } : {}),
    ...(createdAt ? { createdAt } : {}),
    extra,
  };
}
