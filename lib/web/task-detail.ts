import { isSvcError } from '../core/errors.js';
import type { WebMount } from '../daemon/web-port.js';
import { readTaskUsage, type TaskUsage } from '../store/changes/usage.js';
import { getArchived } from '../store/listing/archived.js';
import { readEvents, type SvcEvent } from '../store/events/log.js';

/** A task as its page shows it (docs/web-board.md, "Task page"). */
export interface TaskDetail {
  task: Record<string, unknown>;
  status: string;
  body: string;
  path: string;
  dependsOn: Array<{ id: string; status: string | null; title: string | null }>;
  dependents: Array<{ id: string; status: string; title: string }>;
  /** Every event of the task, newest first. */
  timeline: SvcEvent[];
  /** The gate moves of a gated task (`gate.*` events), oldest first. */
  gateHistory: SvcEvent[];
  /** The task's usage over its runs (`metadata.usage`), or null when no run recorded any. */
  usage: TaskUsage | null;
}

/** `GET /api/task/<id>`: the file (active or archived), its links in both directions and its events. */
export async function readTaskDetail(mount: WebMount, arg: string): Promise<TaskDetail> {
  const stored = await mount.store
    .get(arg)
    .catch((err: unknown) =>
      isSvcError(err, 'not_found') ? getArchived(mount.paths, arg, mount.clock()) : Promise.reject(err),
    );
  const { id } = stored.task;
  const dependents = [...mount.index.summaries()]
    .filter((entry) => entry.dependsOn.includes(id))
    .map((entry) => ({ id: entry.id, status: entry.status, title: entry.title }));
  const dependsOn = stored.task.dependsOn.map((dep) => {
    const entry = mount.index.get(dep);
    return { id: dep, status: entry?.status ?? null, title: entry?.title ?? null };
  });
  const timeline = (await readEvents(mount.paths.root, { taskId: id })).reverse();
  return {
    task: stored.task as unknown as Record<string, unknown>,
    status: stored.status,
    body: stored.body,
    path: stored.path,
    dependsOn,
    dependents,
    timeline,
    gateHistory: timeline.filter((event) => event.type.startsWith('gate.')).reverse(),
    usage: readTaskUsage(stored.task.metadata),
  };
}
