import type { Priority } from '../../core/priority.js';
import { assertSchedulable } from '../../core/status.js';
import { assertTaskText, type Routing, type Task } from '../../core/task.js';
import type { CommitResult } from '../commit/protocol.js';
import type { Store } from '../commit/store.js';
import type { ActOptions } from './ops.js';

/** Fields `editTask` can change. */
export interface EditInput {
  title?: string;
  description?: string;
  priority?: Priority;
  routing?: Pick<Routing, 'agent' | 'team' | 'role' | 'tags'>;
  /** Not dispatched before this time (ISO). */
  notBefore?: string;
  /** Due by this time (ISO). */
  dueAt?: string;
}

/**
 * Edits title, body (description), priority, routing, `notBefore` and `dueAt`; returns the names of the fields changed.
 */
export async function editTask(
  store: Store,
  arg: string,
  input: EditInput & ActOptions,
): Promise<{ result: CommitResult; updatedFields: string[] }> {
  assertTaskText(input.title, input.description);
  let updatedFields: string[] = [];
  const scheduling = SCHEDULING_FIELDS.filter((key) => input[key] !== undefined);
  const result = await store.commit(
    arg,
    (current) => {
      if (scheduling.length) assertSchedulable(current.task.id, current.status, `its ${scheduling.join(', ')}`);
      const task: Task = { ...current.task };
      updatedFields = [];
      if (input.title !== undefined && input.title.trim() !== task.title) {
        task.title = input.title.trim();
        updatedFields.push('title');
      }
      if (input.priority !== undefined && input.priority !== task.priority) {
        task.priority = input.priority;
        updatedFields.push('priority');
      }
      if (input.routing) {
        const routing = { ...task.routing, ...withoutUndefined(input.routing) };
        if (JSON.stringify(routing) !== JSON.stringify(task.routing)) {
          task.routing = routing;
          updatedFields.push('routing');
        }
      }
      for (const key of ['notBefore', 'dueAt'] as const) {
        if (input[key] === undefined || input[key] === task[key]) continue;
        task[key] = input[key];
        updatedFields.push(key);
      }
      const body =
        input.description !== undefined && input.description !== current.body ? input.description : current.body;
      if (body !== current.body) updatedFields.push('description');
      if (!updatedFields.length) return null;
      return {
        task,
        body,
        status: current.status,
        events: [{ type: 'task.updated', taskId: task.id, actor: input.actor, payload: { fields: updatedFields } }],
      };
    },
    input.actor,
  );
  return { result, updatedFields };
}

// --- internal ---

/** What `editTask` changes that only matters to a task that may still run. */
const SCHEDULING_FIELDS = ['priority', 'routing', 'notBefore', 'dueAt'] as const;

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
