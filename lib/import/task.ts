import { DEFAULT_PRIORITY } from '../core/priority.js';
import type { Task } from '../core/task.js';
import type { SourceRecord } from './sources/record.js';

/** The id a task is checked with before its real id is reserved (a dry run). */
const PROBE_ID = 'TASK-0000-00-00-000';

/** What `toNewTask` needs beyond the record: rewritten links, the project of the import, the time. */
export interface NewTaskOptions {
  dependsOn: string[];
  parentId?: string;
  project?: string;
  now: Date;
}

/**
 * The svc task of a new source entry. An svc export keeps its task as it was (id, dependencies
 * and parent rewritten only when they changed); any other source gets svc's defaults, its own
 * fields, and `metadata.source {system, id, url?, importedAt}` with the rest under `metadata.<system>`.
 */
export function toNewTask(item: { id?: string; record: SourceRecord }, system: string, options: NewTaskOptions): Task {
  const { record } = item;
  const id = item.id ?? PROBE_ID;
  if (record.exact) {
    const task: Task = { ...record.exact, id, dependsOn: options.dependsOn };
    if (options.parentId !== undefined) task.parentId = options.parentId;
    else delete task.parentId; // dropped where it closed a parent cycle
    return task;
  }
  const stamp = options.now.toISOString();
  const source: Record<string, unknown> = {
    system,
    id: record.sourceId,
    ...(record.url ? { url: record.url } : {}),
    importedAt: stamp,
  };
  const task: Task = {
    schemaVersion: 1,
    id,
    project: options.project ?? record.project ?? 'default',
    title: record.title.trim(),
    status: record.status,
    priority: record.priority ?? DEFAULT_PRIORITY,
    routing: record.tags?.length ? { tags: record.tags } : {},
    createdAt: record.createdAt ?? stamp,
    updatedAt: stamp,
    lastTransitionAt: stamp,
    createdBy: `import:${system}`,
    dependsOn: options.dependsOn,
    metadata: { source, ...(record.extra && Object.keys(record.extra).length ? { [system]: record.extra } : {}) },
  };
  if (record.fields)
    Object.assign(task, record.fields, {
      routing: { ...record.fields.routing, ...task.routing },
      metadata: { ...record.fields.metadata, ...task.metadata },
    });
  if (options.parentId !== undefined) task.parentId = options.parentId;
  return task;
}

/** The folder a source entry's files are copied to: `data/imports/<system>-files/<svc id>/`. */
export function toFilesDir(system: string, id: string): string {
  return `data/imports/${system}-files/${id}/`;
}

/** The body svc writes: the source's, byte for byte, then (when the entry has files) a line naming their copy. */
export function toImportBody(record: SourceRecord, system: string, id: string): string {
  if (!record.companion) return record.body;
  const gap = record.body === '' ? '' : record.body.endsWith('\n') ? '\n' : '\n\n';
  return `${record.body}${gap}Files imported from ${system}: ${toFilesDir(system, id)}\n`;
}
