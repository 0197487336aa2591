import { isSafeId } from '../../../core/ids.js';
import type { Status } from '../../../core/status.js';
import type { Task } from '../../../core/task.js';
import { findGate, loadWorkflow } from '../../../org/workflow.js';
import type { SourceRecord } from '../record.js';
import { toIsoTime, toPriority, toStrings } from '../read.js';

/** AOF's status folders, in its own order; `review` is the one svc does not have. */
export const AOF_STATUSES = [
  'backlog',
  'ready',
  'in-progress',
  'blocked',
  'review',
  'done',
  'cancelled',
  'deadletter',
] as const;
export type AofStatus = (typeof AOF_STATUSES)[number];

/**
 * One AOF task store: the root's `tasks/` (scope '') or a project's (scope `<project>/`, the prefix of its source ids).
 */
export interface AofStore {
  tasksDir: string;
  scope: string;
  project?: string;
  eventsDir?: string;
}

/** Whether svc has workflow `name` with gate `gate` (org/workflows/<name>.yaml). */
export type GateLookup = (workflow: string, gate: string) => Promise<boolean>;

/** What `toAofRecord` needs beyond the parsed file. */
export interface AofRecordContext {
  file: string;
  status: AofStatus;
  store: AofStore;
  keepStatus: boolean;
  gateOf: GateLookup;
  companion?: string;
}

/** Frontmatter keys svc carries over itself; every other key goes under `metadata.aof`. */
const CARRIED = new Set([
  'schemaVersion',
  'id',
  'project',
  'title',
  'status',
  'priority',
  'routing',
  'sla',
  'createdAt',
  'createdBy',
  'parentId',
  'dependsOn',
  'metadata',
]);
const ROUTING_KEYS = ['role', 'team', 'agent', 'workflow'] as const;

/** A lookup of svc's workflows (each read once); a workflow that is missing or invalid maps no gate. */
export function createGateLookup(root: string | undefined): GateLookup {
  const flows = new Map<string, Promise<Awaited<ReturnType<typeof loadWorkflow>> | null>>();
  return async (name, gate) => {
    if (!root || !isSafeId(name)) return false;
    if (!flows.has(name))
      flows.set(
        name,
        loadWorkflow(root, name).catch(() => null),
      );
    const flow = await flows.get(name)!;
    return flow !== null && findGate(flow, gate) !== null;
  };
}

/**
 * One AOF task as an import record (docs/import.md, "aof"): statuses one to one except `review`
 * (in progress at its gate when svc has the workflow, else blocked "was in review") and
 * `in-progress` (ready, the lease dropped, unless --keep-status).
 */
export async function toAofRecord(
  parsed: { data: Record<string, unknown>; body: string },
  ctx: AofRecordContext,
): Promise<SourceRecord> {
  const { data, body } = parsed;
  const id = data.id;
  if (typeof id !== 'string' || !isSafeId(id))
    throw new Error(`expected frontmatter with an \`id\` such as TASK-2026-01-31-001 (found ${JSON.stringify(id)})`);
  if (typeof data.title !== 'string' || !data.title.trim()) throw new Error('expected frontmatter with a `title`');
  const scope = ctx.store.scope;
  const routingIn = isRecord(data.routing) ? data.routing : {};
  const routing: Task['routing'] = {};
  for (const key of ROUTING_KEYS)
    if (typeof routingIn[key] === 'string' && routingIn[key]) routing[key] = routingIn[key] as string;
  const gate = isRecord(data.gate) && typeof data.gate.current === 'string' ? data.gate.current : undefined;
  const mapped = routing.workflow && gate ? await ctx.gateOf(routing.workflow, gate) : false;
  const found: FoundStatus = { status: ctx.status, mapped };
  const priority = toPriority(data.priority);
  const createdAt = toIsoTime(data.createdAt);
  const project = ctx.store.project ?? (typeof data.project === 'string' && data.project ? data.project : undefined);
  return {
    sourceId: `${scope}${id}`,
    wantedId: id,
    ...(scope ? { scope } : {}),
    file: ctx.file,
    title: data.title,
    body,
    status: toStatus(found, { keepStatus: ctx.keepStatus }),
    ...(priority ? { priority } : {}),
    tags: toStrings(routingIn.tags),
    dependsOn: toStrings(data.dependsOn).map((dep) => `${scope}${dep}`),
    ...(typeof data.parentId === 'string' && data.parentId ? { parentId: `${scope}${data.parentId}` } : {}),
    ...(createdAt ? { createdAt } : {}),
    ...(project ? { project } : {}),
    extra: toExtra(data, found, routingIn),
    fields: toFields(data, ctx.status, { routing, gate: mapped ? gate : undefined }),
    ...(ctx.companion ? { companion: ctx.companion } : {}),
  };
}

// --- internal ---

/** A task's AOF status, and whether its gate is one of svc's workflow (`mapped`). */
interface FoundStatus {
  status: AofStatus;
  mapped: boolean;
}

/**
 * The fields svc has besides the common ones: routing, metadata (with "was in review"), gate when mapped, createdBy,
 * sla.
 */
function toFields(
  data: Record<string, unknown>,
  status: AofStatus,
  routed: { routing: Task['routing']; gate: string | undefined },
): Partial<Task> {
  const { routing, gate } = routed;
  const metadata: Record<string, unknown> = isRecord(data.metadata) ? { ...data.metadata } : {};
  if (status === 'review' && gate === undefined) metadata.blockReason = 'was in review';
  const fields: Partial<Task> = { routing, metadata };
  if (gate !== undefined) fields.gate = { workflow: routing.workflow!, current: gate, history: [] };
  if (typeof data.createdBy === 'string' && data.createdBy) fields.createdBy = data.createdBy;
  const sla = toSla(data.sla);
  if (sla) fields.sla = sla;
  return fields;
}

/** What goes under `metadata.aof`: the AOF status and every field svc does not carry (empty ones left out). */
function toExtra(
  data: Record<string, unknown>,
  found: FoundStatus,
  routing: Record<string, unknown>,
): Record<string, unknown> {
  const { status, mapped } = found;
  const extra: Record<string, unknown> = { status };
  for (const [key, value] of Object.entries(data))
    if (!CARRIED.has(key) && !(key === 'gate' && mapped) && !isEmpty(value)) extra[key] = value;
  if (data.status !== status) extra.statusInFile = data.status;
  if (data.priority !== undefined && !toPriority(data.priority)) extra.priority = data.priority;
  const otherRouting = Object.fromEntries(
    Object.entries(routing).filter(([key]) => key !== 'tags' && !(ROUTING_KEYS as readonly string[]).includes(key)),
  );
  if (Object.keys(otherRouting).length) extra.routing = otherRouting;
  if (isRecord(data.sla) && data.sla.onViolation !== undefined && data.sla.onViolation !== 'alert')
    extra.sla = data.sla;
  return extra;
}

function toStatus(found: FoundStatus, options: { keepStatus: boolean }): Status {
  const { status, mapped } = found;
  const { keepStatus } = options;
  if (status === 'review') return mapped ? (keepStatus ? 'in-progress' : 'ready') : 'blocked';
  if (status === 'in-progress') return keepStatus ? 'in-progress' : 'ready';
  return status;
}

/** svc accepts `maxInProgressMs` and `onViolation: alert` only; another action stays under `metadata.aof.sla`. */
function toSla(value: unknown): Task['sla'] | undefined {
  if (!isRecord(value)) return undefined;
  const out: NonNullable<Task['sla']> = {};
  if (typeof value.maxInProgressMs === 'number' && value.maxInProgressMs > 0)
    out.maxInProgressMs = value.maxInProgressMs;
  if (value.onViolation === 'alert') out.onViolation = 'alert';
  return Object.keys(out).length ? out : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (Array.isArray(value) && value.length === 0) ||
    (isRecord(value) && Object.keys(value).length === 0)
  );
}
