import type { GateRoleResolver, GateRoute } from '../../engine/gates.js';
import type { PlanTask, Snapshot } from '../../engine/plan.js';
import type { IndexEntry, TaskIndex } from '../../store/index/tasks.js';

/**
 * The plan's view of the index. A ready task without a workflow has no gate to resolve: its plan
 * task is kept by entry (an entry is replaced, never changed, when its file changes), so a tick over
 * thousands of ready tasks neither waits on a promise nor builds an object for each.
 */
export async function toSnapshot(index: TaskIndex, roleOf: GateRoleResolver): Promise<Snapshot> {
  const ready: (PlanTask | Promise<PlanTask>)[] = [];
  for (const entry of index.summaries('ready')) {
    if (entry.gate?.workflow ?? entry.routing.workflow) {
      ready.push(roleOf(entry).then((gate) => toPlanTask(entry, gate)));
      continue;
    }
    let task = planTasks.get(entry);
    if (!task) planTasks.set(entry, (task = toPlanTask(entry, undefined)));
    ready.push(task);
  }
  const inProgress = [...index.summaries('in-progress')].map((entry) => toPlanTask(entry, undefined));
  const resolved = ready.some((task) => task instanceof Promise) ? await Promise.all(ready) : (ready as PlanTask[]);
  return { ready: resolved, inProgress, statusOf: (id) => index.get(id)?.status };
}

// --- internal ---

const planTasks = new WeakMap<IndexEntry, PlanTask>();

function toPlanTask(entry: IndexEntry, gate: GateRoute | undefined): PlanTask {
  return {
    id: entry.id,
    status: entry.status,
    priority: entry.priority,
    createdAt: entry.createdAt,
    routing: entry.routing,
    dependsOn: entry.dependsOn,
    lease: entry.lease,
    gateRole: gate?.role,
    approval: gate?.approval,
    dispatchFailures: entry.dispatchFailures,
    nextAttemptAt: entry.nextAttemptAt,
    notBefore: entry.notBefore,
    workspaceHost: entry.workspaceHost,
  };
}
