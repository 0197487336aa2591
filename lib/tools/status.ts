import * as z from 'zod';
import { compareText } from '../core/compare.js';
import { toPriorityRank } from '../core/priority.js';
import { isStatus, isTerminal, STATUSES, type Status } from '../core/status.js';
import { listNames, type Store } from '../store/commit/store.js';
import type { StoredTask } from '../store/disk/task-file.js';
import { actorParam, statusParam, toolParams } from './params.js';
import type { TaskIndexReader, TaskSummary, ToolDef } from './registry.js';

/** Tasks listed by `svc_status` when no `limit` is given. */
export const DEFAULT_STATUS_LIMIT = 50;

/** `svc_status` params. */
export const StatusParams = toolParams({
  agent: z.string().min(1).optional().describe('Only tasks of this agent (its lease, else routing.agent).'),
  status: statusParam
    .optional()
    .describe('Only tasks in this status; done and cancelled tasks are listed only when asked for here.'),
  compact: z.boolean().optional().describe('List {id, status} only (default false).'),
  limit: z
    .number()
    .int()
    .min(0)
    .max(10_000)
    .optional()
    .describe(`Maximum tasks listed (default ${DEFAULT_STATUS_LIMIT}); total and byStatus count every match.`),
  actor: actorParam,
});

type StatusParamsInput = z.infer<typeof StatusParams>;

/** One listed task: `{id, title, status, agent?}`, or `{id, status}` when compact. */
export type StatusEntry = { id: string; status: string; title?: string; agent?: string };

/** What `svc_status` returns. */
export interface StatusResult {
  total: number;
  byStatus: Record<string, number>;
  tasks: StatusEntry[];
}

/** `svc_status`: counts and a short listing, served from the index when there is one. */
export const svcStatus: ToolDef<typeof StatusParams> = {
  name: 'svc_status',
  description:
    'Overview of tasks: total and byStatus count every task matching the ' +
    'filters (agent, status); tasks lists at most limit of them (default 50), ' +
    'active ones first by priority, done and cancelled only when status asks ' +
    'for them. Returns {total, byStatus, tasks: [{id, title, status, agent?}]}.',
  params: StatusParams,
  async handler(params, ctx): Promise<StatusResult> {
    return ctx.index ? summarizeIndex(ctx.index, params) : summarizeStore(ctx.store, params);
  },
};

/** The summary of a stored task, as `svc_status` and an index see it (agent: the lease's, else `routing.agent`). */
export function toTaskSummary(stored: StoredTask): TaskSummary {
  const { task } = stored;
  const summary: TaskSummary = {
    id: task.id,
    title: task.title,
    status: stored.status,
    priority: task.priority,
    createdAt: task.createdAt,
  };
  const agent = task.lease?.agent ?? task.routing.agent;
  if (agent) summary.agent = agent;
  return summary;
}

/** Counts and lists summaries under the `svc_status` filters (pure: the index and the store fallback share it). */
export function summarize(summaries: Iterable<TaskSummary>, params: StatusParamsInput): StatusResult {
  const byStatus: Record<string, number> = Object.fromEntries(STATUSES.map((status) => [status, 0]));
  const limit = params.limit ?? DEFAULT_STATUS_LIMIT;
  const top: TaskSummary[] = [];
  let total = 0;
  for (const summary of summaries) {
    if (params.agent !== undefined && summary.agent !== params.agent) continue;
    if (params.status !== undefined && summary.status !== params.status) continue;
    total++;
    byStatus[summary.status] = (byStatus[summary.status] ?? 0) + 1;
    if (params.status === undefined && isStatus(summary.status) && isTerminal(summary.status)) continue;
    insertTop(top, summary, limit);
  }
  return {
    total,
    byStatus,
    tasks: top.map((summary) => toEntry(summary, params.compact === true ? 'compact' : 'full')),
  };
}

// --- internal ---

/**
 * From the index: counts come from its per-status counts and only the statuses that can be listed
 * are walked, so 100,000 done tasks cost nothing (and need not be read yet). An agent filter, or a
 * listing of done or cancelled tasks, waits until the index has read every task.
 */
async function summarizeIndex(index: TaskIndexReader, params: StatusParamsInput): Promise<StatusResult> {
  await index.refresh?.();
  if (params.agent !== undefined || !index.counts) {
    await index.loaded;
    return summarize(index.summaries(), params);
  }
  if (params.status && isTerminal(params.status)) await index.loaded;
  const wanted = params.status ? [params.status] : STATUSES.filter((status) => !isTerminal(status));
  const result = summarize(
    wanted.flatMap((status) => [...index.summaries(status)]),
    params,
  );
  const counts = index.counts();
  result.byStatus = Object.fromEntries(
    STATUSES.map((status) => [status, !params.status || status === params.status ? (counts[status] ?? 0) : 0]),
  ); // a status filter counts only its status, as the agent filter counts only its tasks
  result.total = params.status
    ? (counts[params.status] ?? 0)
    : STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
  return result;
}

/**
 * Without an index: counts come from file names alone (one readdir per status) and only the tasks
 * that can be listed are read, so done and cancelled tasks cost nothing. An agent filter needs
 * every matching file read.
 */
async function summarizeStore(store: Store, params: StatusParamsInput): Promise<StatusResult> {
  const wanted: readonly Status[] = params.status ? [params.status] : STATUSES;
  const read = async (statuses: readonly Status[]) => (await store.list(statuses)).tasks.map(toTaskSummary);
  if (params.agent !== undefined) return summarize(await read(wanted), params);
  const names = await listNames(store.paths, wanted);
  const listed = await read(params.status ? wanted : wanted.filter((status) => !isTerminal(status)));
  const result = summarize(listed, params);
  result.byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0]));
  for (const found of names.values()) result.byStatus[found[0]!] = (result.byStatus[found[0]!] ?? 0) + 1;
  result.total = names.size;
  return result;
}

/** Listing order: non-terminal first, then higher priority, then older, then id. */
function byListingOrder(a: TaskSummary, b: TaskSummary): number {
  return (
    terminalRank(a) - terminalRank(b) ||
    toPriorityRank(b.priority) - toPriorityRank(a.priority) ||
    compareText(a.createdAt, b.createdAt) ||
    compareText(a.id, b.id)
  );
}

function terminalRank(summary: TaskSummary): number {
  return isStatus(summary.status) && isTerminal(summary.status) ? 1 : 0;
}

/** Keeps `top` sorted and at most `limit` long without sorting every match (100,000 tasks stay cheap). */
function insertTop(top: TaskSummary[], summary: TaskSummary, limit: number): void {
  if (limit === 0) return;
  if (top.length === limit && byListingOrder(summary, top[top.length - 1]!) >= 0) return;
  let low = 0;
  let high = top.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (byListingOrder(top[mid]!, summary) <= 0) low = mid + 1;
    else high = mid;
  }
  top.splice(low, 0, summary);
  if (top.length > limit) top.pop();
}

function toEntry(summary: TaskSummary, shape: 'compact' | 'full'): StatusEntry {
  if (shape === 'compact') return { id: summary.id, status: summary.status };
  const entry: StatusEntry = { id: summary.id, title: summary.title, status: summary.status };
  if (summary.agent) entry.agent = summary.agent;
  return entry;
}
