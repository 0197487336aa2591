import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentPause } from '../../store/records/agent-pauses.js';
import polka, { type Middleware, type Request } from 'polka';
import * as z from 'zod';
import { SvcError } from '../../core/errors.js';
import { formatIssues } from '../../core/task.js';
import { STATUSES, type Status } from '../../core/status.js';
import { fromFilterQuery, type TaskFilter } from '../../store/listing/task-filter.js';
import type { RunCaller, ToolContext, ToolDef } from '../../tools/registry.js';
import { assertObject, queryOf, readJson, route, sendError, sendJson, type Handler } from '../http/exchange.js';
import type { LeaseOwners } from './lease-owners.js';
import type { LongPollBudgets } from '../http/long-polls.js';
import type { DaemonLog } from '../instance/log.js';
import { assertServing, invoke, invokeBatch, type InvokeContext } from './invoke.js';
import type { ConfigReport } from '../scheduling/org-state.js';
import type { AttachedPlugin, SpawnQueue } from '../scheduling/spawn-queue.js';

/** The plugin lifecycle events accepted on `POST /v1/event/<name>`. */
export const HOOK_NAMES = ['session-end', 'agent-end', 'before-compaction', 'message-received'] as const;
/** One of `HOOK_NAMES`. */
export type HookName = (typeof HOOK_NAMES)[number];

/** A body each event takes, shown in the hint of a body that is not one. */
const HOOK_EXAMPLES: Record<HookName, string> = {
  'session-end': '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001", "reason": "completed", "durationMs": 1200}',
  'agent-end': '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001", "success": true, "durationMs": 1200}',
  'before-compaction': '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001", "messageCount": 40, "tokenCount": 90000}',
  'message-received': '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001", "from": "user", "content": "..."}',
};
const RESULT_EXAMPLE = '{"ok": true, "sessionKey": "..."} or {"ok": false, "error": "...", "reason": "..."}';

/** The body of `GET /status` (docs/daemon.md). */
export interface StatusBody {
  status: 'running' | 'stopping';
  healthy: boolean;
  version: string;
  pid: number;
  uptimeMs: number;
  mode: string;
  plugins: AttachedPlugin[];
  tasks: { byStatus: Record<Status, number>; invalid: number; loaded: boolean };
  scheduler: { lastPollAt: string | null; lastTickAt: string | null };
  /** Whose leases hold the in-progress tasks: this daemon, the other daemons on the tree, none. */
  leases: LeaseOwners;
  /** The org chart's state (with a scheduler). */
  config?: ConfigReport;
  /** The agents paused by `svc agent pause` (with a scheduler). */
  pausedAgents?: AgentPause[];
  /** Where the web board listens (its URL without the token), or null while it is not open. */
  web?: { port: number; url: string } | null;
}

/** Where the board listens, and the token its URL carries once. */
export interface WebAddress {
  port: number;
  token: string;
  url: string;
}

/** What the routes need from the daemon. */
export interface RouteContext extends InvokeContext {
  tools: readonly ToolDef[];
  toolContext: ToolContext;
  /** The live agent run a request comes from, or null (`tools/operator-only.ts` refuses its decisions). */
  callerOf?: (req: IncomingMessage) => Promise<RunCaller | null>;
  spawns: SpawnQueue;
  log: DaemonLog;
  status: () => Promise<StatusBody>;
  isStopping: () => boolean;
  /** How long `GET /v1/spawns/wait` holds an idle long-poll. */
  spawnWaitMs: number;
  /** How many long-polls each long-poll route holds at once. */
  longPolls: LongPollBudgets;
  onHook: (name: HookName, payload: Record<string, unknown>, plugin: string | undefined) => Promise<void>;
  /** Waits until the task change counter passes `after` (or `waitMs` passes, or the client goes); resolves with the counter. */
  waitChanges: (after: number, waitMs: number, signal: AbortSignal) => Promise<number>;
  /** `svc task list` served from the index: the entries of one status, or all, that pass the filter, and the invalid files. */
  listTasks: (statuses: readonly Status[] | undefined, filter: TaskFilter) => Promise<{ tasks: unknown[]; invalid: unknown[]; counts: Record<Status, number> }>;
  /** `svc web`: opens the web board (once) and answers where it listens and its token. */
  openWeb: (port: number | undefined) => Promise<WebAddress>;
  /** `svc scheduler run`: one tick now, or the plan of one without acting. */
  scheduler: { tick: () => Promise<unknown[]>; dryRun: () => Promise<unknown[]> };
  /** `GET /metrics`: the Prometheus text of the daemon's metrics (docs/metrics.md). */
  metrics: Handler;
}

/** Builds the request handler: every route of the route table in docs/daemon.md, every failure in the error shape. */
export function createRoutes(ctx: RouteContext): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = (err: SvcError, req: IncomingMessage) => ctx.log.error('request.failed', { method: req.method, url: req.url, code: err.code, message: err.message, cause: err.cause });
  const wrap = (handler: Handler) => route(handler, fail) as unknown as Middleware;
  const app = polka({
    onError: (err, req, res) => sendError(res, err, req, fail),
    onNoMatch: (req, res) => sendError(res, new SvcError('not_found', `No route ${req.method} ${req.path}.`, `Routes: ${ROUTES}.`)),
  });
  app.get('/healthz', wrap((_req, res) => healthz(ctx, res)));
  app.get('/metrics', wrap(ctx.metrics));
  app.get('/status', wrap(async (_req, res) => sendJson(res, 200, await ctx.status())));
  app.post('/v1/tool/invoke', wrap((req, res) => invoke(ctx, req, res, (err) => fail(err, req))));
  app.post('/v1/tool/batch', wrap((req, res) => invokeBatch(ctx, req, res, (err) => fail(err, req))));
  app.post('/v1/event/:name', wrap((req, res) => hook(ctx, req, res)));
  app.get('/v1/spawns/wait', wrap((req, res) => waitSpawn(ctx, req, res)));
  app.post('/v1/spawns/:id/result', wrap((req, res) => spawnResult(ctx, req, res)));
  app.get('/v1/spawns/:id/stop', wrap((req, res) => waitStop(ctx, req, res)));
  app.get('/v1/tasks/changes', wrap((req, res) => waitChanges(ctx, req, res)));
  app.get('/v1/tasks', wrap(async (req, res) => sendJson(res, 200, { ok: true, ...(await ctx.listTasks(toStatusQuery(req), toFilterQuery(req))) })));
  app.post('/v1/scheduler/tick', wrap(async (_req, res) => (assertServing(ctx), sendJson(res, 200, { ok: true, actions: await ctx.scheduler.tick() }))));
  app.post('/v1/web', wrap(async (req, res) => (assertServing(ctx), sendJson(res, 200, { ok: true, ...(await ctx.openWeb(toWebPort(await readJson(req, WEB_EXAMPLE)))) }))));
  app.get('/v1/scheduler/plan', wrap(async (_req, res) => sendJson(res, 200, { ok: true, actions: await ctx.scheduler.dryRun() })));
  return (req, res) => void app.handler(req as Request, res, undefined as never);
}

// --- internal ---

const ROUTES = 'GET /healthz, GET /status, GET /metrics, POST /v1/tool/invoke, POST /v1/tool/batch, POST /v1/event/{session-end|agent-end|before-compaction|message-received}, GET /v1/spawns/wait, POST /v1/spawns/{id}/result, GET /v1/spawns/{id}/stop, GET /v1/tasks?status=&statuses=&tags=&project=&team=&priority=&parent=&since=&text=, GET /v1/tasks/changes?after=&waitMs=, POST /v1/scheduler/tick, GET /v1/scheduler/plan, POST /v1/web';
const WEB_EXAMPLE = '{"port": 7420}';

const ResultBody = z.object({
  ok: z.boolean(),
  sessionKey: z.string().optional(),
  error: z.string().optional(),
  reason: z.string().optional(),
});

function healthz(ctx: RouteContext, res: ServerResponse): void {
  if (!ctx.isStopping()) return sendJson(res, 200, { ok: true });
  const error = new SvcError('unavailable', 'The svc daemon is shutting down.', 'Wait for the supervisor to restart it, or run `svc daemon start`.');
  sendJson(res, 503, { ...error.toJSON(), reason: 'stopping' });
}

async function hook(ctx: RouteContext, req: IncomingMessage & { params?: Record<string, string> }, res: ServerResponse): Promise<void> {
  const name = req.params?.name ?? '';
  if (!(HOOK_NAMES as readonly string[]).includes(name)) {
    throw new SvcError('not_found', `Unknown event ${JSON.stringify(name)}.`, `Events: ${HOOK_NAMES.join(', ')}.`);
  }
  const example = HOOK_EXAMPLES[name as HookName];
  const body = (await readJson(req, example)) ?? {};
  const payload = assertObject(body, `The ${name} event payload`, example);
  await ctx.onHook(name as HookName, payload, pluginOf(req) ?? undefined);
  sendJson(res, 202, { ok: true });
}

async function waitSpawn(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  assertServing(ctx);
  const plugin = pluginOf(req);
  if (!plugin) throw new SvcError('validation_error', 'GET /v1/spawns/wait needs the header x-svc-plugin naming the plugin.', 'Send `x-svc-plugin: <plugin id>`, for example `x-svc-plugin: svc`.');
  ctx.longPolls.spawns.take(res);
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const spawn = await ctx.spawns.take(plugin, ctx.spawnWaitMs, gone.signal);
  if (spawn && (res.destroyed || gone.signal.aborted)) return ctx.spawns.requeue(spawn);
  if (!spawn) {
    res.writeHead(204);
    return void res.end();
  }
  ctx.log.info('spawn.taken', { id: spawn.id, taskId: spawn.taskId, plugin });
  sendJson(res, 200, spawn);
}

async function spawnResult(ctx: RouteContext, req: IncomingMessage & { params?: Record<string, string> }, res: ServerResponse): Promise<void> {
  const id = req.params?.id ?? '';
  const parsed = ResultBody.safeParse(await readJson(req, RESULT_EXAMPLE));
  if (!parsed.success) {
    throw new SvcError('validation_error', `Invalid spawn result for ${id}:\n${formatIssues(parsed.error.issues)}`, `Send ${RESULT_EXAMPLE}.`);
  }
  const outcome = ctx.spawns.settle(id, parsed.data);
  if (outcome === 'unknown') throw new SvcError('not_found', `No spawn ${JSON.stringify(id)} is waiting for a result.`, 'Post results only for spawns handed out by GET /v1/spawns/wait of this daemon.');
  ctx.log.info('spawn.result', { id, ok: parsed.data.ok, reason: parsed.data.reason, repeated: outcome === 'already' });
  sendJson(res, 200, { ok: true });
}

/** The most a change long-poll is held (below the idle limit of a connection). */
const MAX_CHANGE_WAIT_MS = 25_000;

/** A plugin's wait on a run it took: `{stop: true}` once the daemon wants it ended, `{stop: false, known}` after the hold. */
async function waitStop(ctx: RouteContext, req: IncomingMessage & { params?: Record<string, string> }, res: ServerResponse): Promise<void> {
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const state = await ctx.spawns.waitStop(req.params?.id ?? '', ctx.spawnWaitMs, gone.signal);
  if (!res.destroyed) sendJson(res, 200, { ok: true, stop: state === 'stop', known: state !== 'unknown' });
}

async function waitChanges(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const query = queryOf(req);
  const after = Number(query.get('after') ?? -1);
  const waitMs = Number(query.get('waitMs') ?? MAX_CHANGE_WAIT_MS);
  if (!Number.isInteger(after) || !Number.isFinite(waitMs) || waitMs < 0) {
    throw new SvcError('validation_error', `GET /v1/tasks/changes takes whole numbers after and waitMs (found after=${query.get('after')}, waitMs=${query.get('waitMs')}).`, 'Ask GET /v1/tasks/changes?after=<last version>&waitMs=20000.');
  }
  ctx.longPolls.changes.take(res);
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const version = await ctx.waitChanges(after, Math.min(waitMs, MAX_CHANGE_WAIT_MS), gone.signal);
  if (!res.destroyed) sendJson(res, 200, { ok: true, version });
}

/** `status=<one>` or `statuses=<a,b,...>` (the listing of several; an older daemon ignores it and lists all). */
function toStatusQuery(req: IncomingMessage): Status[] | undefined {
  const query = queryOf(req);
  const value = query.get('status') || query.get('statuses');
  if (value === null || value === '') return undefined;
  const statuses = value.split(',');
  const unknown = statuses.find((status) => !(STATUSES as readonly string[]).includes(status));
  if (unknown === undefined) return statuses as Status[];
  throw new SvcError('validation_error', `Unknown status ${JSON.stringify(unknown)}.`, `Use one of: ${STATUSES.join(', ')}.`);
}

function toFilterQuery(req: IncomingMessage): TaskFilter {
  const filter = fromFilterQuery(queryOf(req));
  if (filter.since !== undefined && Number.isNaN(Date.parse(filter.since))) {
    throw new SvcError('validation_error', `GET /v1/tasks takes since as a time (found ${JSON.stringify(filter.since)}).`, 'Ask GET /v1/tasks?since=2026-11-23T08:00:00Z.');
  }
  return filter;
}

function toWebPort(body: unknown): number | undefined {
  const port = body === undefined ? undefined : assertObject(body, 'The web request', WEB_EXAMPLE).port;
  if (port === undefined || (Number.isInteger(port) && (port as number) >= 0 && (port as number) <= 65535)) return port as number | undefined;
  throw new SvcError('validation_error', `POST /v1/web takes port as a whole number from 0 to 65535 (found ${JSON.stringify(port)}).`, `Send ${WEB_EXAMPLE}, or {} for any free port.`);
}

function pluginOf(req: IncomingMessage): string | null {
  const value = req.headers['x-svc-plugin'];
  const id = (Array.isArray(value) ? value[0] : value)?.trim();
  return id && id.length <= 128 ? id : null;
}
