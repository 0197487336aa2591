import { DEFAULT_PRIORITY, type Priority } from '../../core/priority.js';
import type { Status } from '../../core/status.js';
import type { Routing, Task } from '../../core/task.js';

/** What a new task needs; everything else gets its default. */
export interface CreateInput {
  title: string;
  body?: string;
  status?: 'backlog' | 'ready';
  project?: string;
  priority?: Priority;
  routing?: Routing;
  dependsOn?: string[];
  parentId?: string;
  metadata?: Record<string, unknown>;
  sla?: Task['sla'];
  gate?: Task['gate'];
  /** Not dispatched before this time (ISO). */
  notBefore?: string;
  /** Expected done by this time (ISO). */
  dueAt?: string;
  createdBy: string;
  actor?: string;
}

/** A valid id for checking a new task before its real id is reserved. */
export const PROBE_ID = 'TASK-0000-00-00-000';

/** The task `create` writes: the fields given, the defaults for the rest, every time stamp `now`. */
export function toNewTask({ id, status }: { id: string; status: Status }, input: CreateInput, now: Date): Task {
  const stamp = now.toISOString();
  const task: Task = {
    schemaVersion: 1,
    id,
    project: input.project ?? 'default',
    title: input.title.trim(),
    status,
    priority: input.priority ?? DEFAULT_PRIORITY,
    routing: input.routing ?? {},
    createdAt: stamp,
    updatedAt: stamp,
    lastTransitionAt: stamp,
    createdBy: input.createdBy,
    dependsOn: input.dependsOn ?? [],
    metadata: input.metadata ?? {},
  };
  if (input.sla) task.sla = input.sla;
  if (input.parentId) task.parentId = input.parentId;
  if (input.gate) task.gate = input.gate;
  if (input.notBefore) task.notBefore = input.notBefore;
  if (input.dueAt) task.dueAt = input.dueAt;
  return task;
}
