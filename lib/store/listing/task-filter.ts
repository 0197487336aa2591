/** The filters of `svc task list`, combined with AND (docs/command-line.md). */
export interface TaskFilter {
  /** Every one of these tags (`routing.tags`). */
  tags?: string[] | undefined;
  project?: string | undefined;
  /** `routing.team`. */
  team?: string | undefined;
  priority?: string | undefined;
  /** The parent's full id (`parentId`; resolve an id argument first). */
  parent?: string | undefined;
  /** Updated at or after this time (ISO). */
  since?: string | undefined;
  /** Every word, case-insensitive, in the title or the body. */
  text?: string | undefined;
}

/** What the filters look at, short of the body. */
export interface FilterFields {
  title: string;
  project: string;
  priority: string;
  updatedAt: string;
  routing: { team?: string | undefined; tags?: string[] | undefined };
  parentId?: string | undefined;
}

/** The filter names, in the order of the query string of `GET /v1/tasks`. */
export const FILTER_KEYS = ['tags', 'project', 'team', 'priority', 'parent', 'since', 'text'] as const;

/** True when a task passes every filter but `text` (the index can answer these alone). */
export function matchesFields(task: FilterFields, filter: TaskFilter): boolean {
  if (filter.project !== undefined && task.project !== filter.project) return false;
  if (filter.team !== undefined && task.routing.team !== filter.team) return false;
  if (filter.priority !== undefined && task.priority !== filter.priority) return false;
  if (filter.parent !== undefined && task.parentId !== filter.parent) return false;
  if (filter.since !== undefined && Date.parse(task.updatedAt) < Date.parse(filter.since)) return false;
  return !filter.tags?.length || filter.tags.every((tag) => task.routing.tags?.includes(tag) ?? false);
}

/** The words of a `text` filter (lower case); none when it is absent or blank. */
export function toWords(text: string | undefined): string[] {
  return (text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

/** True when every word is in the title or the body. */
export function matchesWords(words: readonly string[], title: string, body: string): boolean {
  const inTitle = title.toLowerCase();
  const inBody = body.toLowerCase();
  return words.every((word) => inTitle.includes(word) || inBody.includes(word));
}

/** The query string of a filter (`tags=a,b&team=core...`), for `GET /v1/tasks`. */
export function toFilterQuery(filter: TaskFilter): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = key === 'tags' ? filter.tags?.join(',') : filter[key];
    if (value !== undefined && value !== '') query.set(key, value);
  }
  return query;
}

/** A filter from a query string (the inverse of `toFilterQuery`). */
export function fromFilterQuery(query: URLSearchParams): TaskFilter {
  const filter: TaskFilter = {};
  for (const key of FILTER_KEYS) {
    const value = query.get(key);
    if (value === null || value === '') continue;
    if (key === 'tags')
      filter.tags = value
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean);
    else filter[key] = value;
  }
  return filter;
}

/** How `selectTasks` reads a task: its filter fields, and its body (read only when needed). */
export interface TaskFields<T> {
  fieldsOf: (task: T) => FilterFields;
  readBody: (task: T) => Promise<string>;
}

/**
 * The tasks that pass every filter, in order. Bodies are read (`readBody`) only for tasks that pass
 * the other filters and whose title lacks a word of `text`; one that cannot be read (gone meanwhile,
 * invalid) does not match.
 */
export async function selectTasks<T>(
  tasks: Iterable<T>,
  filter: TaskFilter,
  { fieldsOf, readBody }: TaskFields<T>,
): Promise<T[]> {
  const words = toWords(filter.text);
  const out: T[] = [];
  for (const task of tasks) {
    const fields = fieldsOf(task);
    if (!matchesFields(fields, filter)) continue;
    if (
      !words.length ||
      matchesWords(words, fields.title, '') ||
      matchesWords(words, fields.title, await readBody(task).catch(() => ''))
    )
      out.push(task);
  }
  return out;
}

/** True when the filter filters anything. */
export function isFiltering(filter: TaskFilter): boolean {
  return FILTER_KEYS.some((key) => filter[key] !== undefined);
}
