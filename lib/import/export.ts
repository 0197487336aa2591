import { relative } from 'node:path';
import { STATUSES, type Status } from '../core/status.js';
import { toOrderedTask } from '../core/task.js';
import { readEvents, type SvcEvent } from '../store/events/log.js';
import type { Store } from '../store/commit/store.js';

/**
 * One exported task: its frontmatter (in the order it is written), body and path, and with `--with-events` its events.
 */
export interface ExportedTask {
  id: string;
  status: Status;
  path: string;
  frontmatter: Record<string, unknown>;
  body: string;
  events?: SvcEvent[];
}

/** What `svc export --format json` writes; `jsonl` writes the tasks alone, one a line. */
export interface ExportDocument {
  format: 'svc-export';
  version: 1;
  exportedAt: string;
  tasks: ExportedTask[];
}

/** Options of `exportTasks`: which statuses (all by default), and whether to add each task's events. */
export interface ExportOptions {
  statuses?: readonly Status[];
  withEvents?: boolean;
}

/** Reads every task of the chosen statuses (invalid files are left out and returned apart). */
export async function exportTasks(
  store: Store,
  options: ExportOptions = {},
): Promise<{ document: ExportDocument; invalid: { path: string; message: string }[] }> {
  const listing = await store.list(options.statuses ?? STATUSES);
  const events = options.withEvents ? groupByTask(await readEvents(store.paths.root)) : null;
  const tasks = listing.tasks.map((stored): ExportedTask => {
    const out: ExportedTask = {
      id: stored.task.id,
      status: stored.status,
      path: relative(store.paths.root, stored.path),
      frontmatter: toOrderedTask(stored.task),
      body: stored.body,
    };
    if (events) out.events = events.get(stored.task.id) ?? [];
    return out;
  });
  const invalid = listing.invalid.map(({ path, message }) => ({
    path: relative(store.paths.root, path),
    message: message.replace(`${path}: `, ''),
  }));
  return { document: { format: 'svc-export', version: 1, exportedAt: store.clock().toISOString(), tasks }, invalid };
}

// --- internal ---

function groupByTask(events: readonly SvcEvent[]): Map<string, SvcEvent[]> {
  const out = new Map<string, SvcEvent[]>();
  for (const event of events) {
    if (!event.taskId) continue;
    const list = out.get(event.taskId);
    if (list) list.push(event);
    else out.set(event.taskId, [event]);
  }
  return out;
}
