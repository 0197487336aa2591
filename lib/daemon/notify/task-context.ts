import type { IndexEntry } from '../../store/index/entry.js';
import type { NotifyTask } from '../../notify/notification.js';

/** What a notification says of its task, from the daemon's index entry (undefined: not in the index). */
export function toNotifyTask(entry: IndexEntry | undefined): NotifyTask | undefined {
  if (!entry) return undefined;
  return {
    id: entry.id,
    title: entry.title,
    status: entry.status,
    priority: entry.priority,
    ...(entry.agent ? { agent: entry.agent } : {}),
    ...(entry.routing.team ? { team: entry.routing.team } : {}),
    project: entry.project,
  };
}

/** The web board's page of a task while the board listens (its URL without the token), else undefined. */
export function toBoardUrl(port: number | null, taskId: string): string | undefined {
  return port === null ? undefined : `http://127.0.0.1:${port}/task/${encodeURIComponent(taskId)}`;
}
