import type { Status } from '../core/status.js';
import { toDispatchFailures, toNextAttemptAt } from '../core/task.js';
import type { Store } from '../store/commit/store.js';
import type { StoredTask } from '../store/disk/task-file.js';
import { createGateRoleResolver, type GateRoute } from './gates.js';
import type { PlanTask, Snapshot } from './plan.js';
import type { SchedulerSource } from './scheduler.js';

/** The planner's view of a stored task. */
export function toPlanTask(stored: StoredTask, gate?: GateRoute): PlanTask {
  const { task } = stored;
  return {
    id: task.id,
    status: stored.status,
    priority: task.priority,
    createdAt: task.createdAt,
    routing: task.routing,
    dependsOn: task.dependsOn,
    lease: task.lease,
    gateRole: gate?.role,
    approval: gate?.approval,
    dispatchFailures: toDispatchFailures(task.metadata),
    nextAttemptAt: toNextAttemptAt(task.metadata),
    notBefore: task.notBefore,
    workspaceHost: task.workspace?.host,
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

/** A scheduler source that lists the files for each snapshot (no daemon, so no index to read from). */
export function createListingSource(store: Store): SchedulerSource {
  return {
    async snapshot() {
      const { tasks } = await store.list();
      const roleOf = createGateRoleResolver(store.paths.root);
      const planned = await Promise.all(
        tasks.map(async (t) => toPlanTask(t, t.status === 'ready' ? await roleOf(t.task) : undefined)),
      );
      return toSnapshot(planned, new Map(tasks.map((t) => [t.task.id, t.status])));
    },
  };
}
