import { parseTask, TaskSchema, type Task } from '../../core/task.js';
import { findDroppedKeys } from '../../core/task-issues.js';

/**
 * Validates `next`, the task a change function built from `base` (a task `parseTask` produced: the task as re-read
 * under the lock), with the same outcome as `parseTask(next, source)` at a fraction of its cost. The task schema
 * checks each top-level field on its own (no rule joins two fields), and `base`'s fields passed it already: so a field
 * whose value is `base`'s own (the same primitive, or the same object, which change functions never mutate: they
 * copy what they change) is kept as it is, and only the others go through their field's schema, and the `__proto__`
 * check. A change that sets `lease` and `updatedAt` checks those two, not the whole task again. Anything the narrow
 * check does not pass (a field that fails, a required field gone, an object not built as a plain copy) is judged by
 * `parseTask` itself, so a refusal says exactly what it said before.
 */
export function parseChangedTask(base: Task, next: Record<string, unknown>, source: string): Task {
  if (Object.getPrototypeOf(next) !== Object.prototype) return parseTask(next, source);
  const known = base as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(next)) {
    const value = next[key];
    if (value === undefined) continue;
    if (Object.is(value, known[key]) && Object.hasOwn(known, key)) {
      out[key] = value;
      continue;
    }
    if (key === '__proto__' || findDroppedKeys(value).length) return parseTask(next, source);
    const field = FIELDS.get(key);
    if (!field) {
      out[key] = value; // an unknown field is kept as it is, as the schema keeps it
      continue;
    }
    const checked = field.safeParse(value);
    if (!checked.success) return parseTask(next, source);
    out[key] = checked.data;
  }
  for (const key of REQUIRED) if (!Object.hasOwn(out, key)) return parseTask(next, source);
  return out as Task;
}

// --- internal ---

/** The schema of each known field (a map: a key such as `constructor` finds nothing). */
const FIELDS = new Map(Object.entries(TaskSchema.shape));
/** The fields a task cannot be without (their schema refuses undefined). */
const REQUIRED = [...FIELDS].filter(([, schema]) => !schema.safeParse(undefined).success).map(([key]) => key);
