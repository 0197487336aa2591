import { isTerminal, type Status } from '../../core/status.js';
import { resolveAnyId } from '../../store/listing/archived.js';
import type { Store } from '../../store/commit/store.js';
import { selectTasks, type TaskFilter } from '../../store/listing/task-filter.js';
import type { IndexEntry, TaskIndex } from '../../store/index/tasks.js';
import { toGrouping, toLeasedBy, toScheduleFields } from '../../store/listing/task-row.js';

/** A row of `GET /v1/tasks` (the command line adds each file's path). */
export type IndexRow = ReturnType<typeof toRow>;

/**
 * `GET /v1/tasks`: the tasks of some statuses, or all, from the index (refreshed first, so a write of
 * another process is seen), filtered (docs/command-line.md), and the count of every status. The
 * index holds no bodies: the `text` filter reads the body of a task only when the other filters
 * pass and its title lacks a word.
 */
export async function listIndexed(
  { index, store }: { index: TaskIndex; store: Store },
  statuses: readonly Status[] | undefined,
  filter: TaskFilter = {},
): Promise<{ tasks: IndexRow[]; invalid: ReturnType<TaskIndex['invalid']>; counts: Record<Status, number> }> {
  if (!statuses || statuses.some(isTerminal)) await index.loaded;
  await index.refresh();
  const parent = filter.parent === undefined ? undefined : await resolveAnyId(store, filter.parent);
  const entries = statuses ? statuses.flatMap((status) => [...index.summaries(status)]) : [...index.summaries()];
  const selected = await selectTasks(
    entries,
    { ...filter, parent },
    { fieldsOf: (entry) => entry, readBody: async (entry) => (await store.get(entry.id)).body },
  );
  return { tasks: selected.map(toRow), invalid: index.invalid(), counts: index.counts() };
}

// --- internal ---

function toRow(entry: IndexEntry) {
  const {
    id,
    title,
    status,
    priority,
    project,
    agent,
    createdAt,
    updatedAt,
    dependsOn,
    nextAttemptAt,
    lease,
    routing,
    parentId,
    notBefore,
    dueAt,
    awaiting,
    budgetWait,
  } = entry;
  return {
    id,
    title,
    status,
    priority,
    project,
    agent,
    createdAt,
    updatedAt,
    dependsOn,
    ...(status === 'ready' && nextAttemptAt ? { nextAttemptAt } : {}),
    ...toLeasedBy(lease),
    ...toGrouping({ ...routing, parentId }),
    ...toScheduleFields(status, { notBefore, dueAt }),
    ...(awaiting ? { awaiting } : {}),
    ...(budgetWait ? { budgetWait } : {}),
  };
}
