import type { Status } from '../core/status.js';
import type { StoredTask } from '../store/task-file.js';
import type { PlanTask, Snapshot } from './plan.js';

/** The planner's view of a stored task. */
export function toPlanTask(stored: StoredTask, gateRole?: string): PlanTask {
  const { task } = stored;
  const failures = Number(task.metadata.dispatchFailures ?? 0);
  return {
    id: task.id, status: stored.status, priority: task.priority, createdAt: task.createdAt, routing: task.routing,
    dependsOn: task.dependsOn, lease: task.lease, gateRole, dispatchFailures: Number.isFinite(failures) ? failures : 0,
  };
}

/**
 * A snapshot from a full listing (the command line without a daemon). `statuses` maps every id to
 * its status, so dependencies on tasks outside ready and in-progress resolve.
 */
export function toSnapshot(tasks: readonly PlanTask[], statuses: ReadonlyMap<string, Status>): Snapshot {
  return {
    ready: tasks.filter((t) => t.status === 'ready'),
    inProgress: tasks.filter((t) => t.status === 'in-progress'),
    statusOf: (id) => statuses.get(id),
  };
}
