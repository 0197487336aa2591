import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentPause } from '../store/agent-pauses.js';
import polka, { type Middleware, type Request } from 'polka';
import * as z from 'zod';
import { SvcError } from '../core/errors.js';
import { formatIssues } from '../core/task.js';
import { STATUSES, type Status } from '../core/status.js';
import { invokeTool, type ToolContext, type ToolDef } from '../tools/registry.js';
import { assertObject, readJson, route, sendError, sendJson, type Handler } from './http.js';
import type { LeaseOwners } from './lease-owners.js';
import type { DaemonLog } from './log.js';
import type { ConfigReport } from './org-state.js';
import type { AttachedPlugin, SpawnQueue } from './spawn-queue.js';

/** The plugin lifecycle events accepted on `POST /v1/event/<name>`. */
export const HOOK_NAMES = ['session-end', 'agent-end', 'before-compaction', 'message-received'] as const;
/** One of `HOOK_NAMES`. */
export type HookName = (typeof HOOK_NAMES)[number];

/** The body of `GET /status` (README, "The daemon"). */
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
}

/** What the routes need from the daemon. */
export interface RouteContext {
  tools: readonly ToolDef[];
  toolContext: ToolContext;
  /** Brings the index up to date before a tool runs (read-your-writes across processes). */
  beforeTool: () => Promise<void>;
  spawns: SpawnQueue;
  log: DaemonLog;
  status: () => Promise<StatusBody>;
  isStopping: () => boolean;
  /** How long `GET /v1/spawns/wait` holds an idle long-poll. */
  spawnWaitMs: number;
  onHook: (name: HookName, payload: Record<string, unknown>, plugin: string | undefined) => Promise<void>;
  /** Waits until the task change counter passes `after` (or `waitMs` passes, or the client goes); resolves with the counter. */
  waitChanges: (after: number, waitMs: number, signal: AbortSignal) => Promise<number>;
  /** `svc task list` served from the index: the entries of one status, or all, and the invalid files. */
  listTasks: (status: Status | undefined) => Promise<{ tasks: unknown[]; invalid: unknown[] }>;
  /** `svc scheduler run`: one tick now, or the plan of one without acting. */
  scheduler: { tick: () => Promise<unknown[]>; dryRun: () => Promise<unknown[]> };
}

/** Builds the request handler: every route of the README's route table, every failure in the error shape. */
export function createRoutes(ctx: RouteContext): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = (err: SvcError, req: IncomingMessage) => ctx.log.error('request.failed', { method: req.method, url: req.url, code: err.code, message: err.message, cause: err.cause });
  const wrap = (handler: Handler) => route(handler, fail) as unknown as Middleware;
  const app = polka({
    onError: (err, req, res) => sendError(res, err, req, fail),
    onNoMatch: (req, res) => sendError(res, new SvcError('not_found', `No route ${req.method} ${req.path}.`, `Routes: ${ROUTES}.`)),
  });
  app.get('/healthz', wrap((_req, res) => healthz(ctx, res)));
  app.get('/status', wrap(async (_req, res) => sendJson(res, 200, await ctx.status())));
  app.post('/v1/tool/invoke', wrap((req, res) => invoke(ctx, req, res)));
  app.post('/v1/event/:name', wrap((req, res) => hook(ctx, req, res)));
  app.get('/v1/spawns/wait', wrap((req, res) => waitSpawn(ctx, req, res)));
  app.post('/v1/spawns/:id/result', wrap((req, res) => spawnResult(ctx, req, res)));
  app.get('/v1/tasks/changes', wrap((req, res) => waitChanges(ctx, req, res)));
  app.get('/v1/tasks', wrap(async (req, res) => sendJson(res, 200, { ok: true, ...(await ctx.listTasks(toStatusQuery(req))) })));
  app.post('/v1/scheduler/tick', wrap(async (_req, res) => (assertServing(ctx), sendJson(res, 200, { ok: true, actions: await ctx.scheduler.tick() }))));
  app.get('/v1/scheduler/plan', wrap(async (_req, res) => sendJson(res, 200, { ok: true, actions: await ctx.scheduler.dryRun() })));
  return (req, res) => void app.handler(req as Request, res, undefined as never);
}

// --- internal ---

const ROUTES = 'GET /healthz, GET /status, POST /v1/tool/invoke, POST /v1/event/{session-end|agent-end|before-compaction|message-received}, GET /v1/spawns/wait, POST /v1/spawns/{id}/result, GET /v1/tasks?status=, GET /v1/tasks/changes?after=&waitMs=, POST /v1/scheduler/tick, GET /v1/scheduler/plan';

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

function assertServing(ctx: RouteContext): void {
  if (ctx.isStopping()) throw new SvcError('unavailable', 'The svc daemon is shutting down and takes no new requests.', 'Retry once it is back (`svc daemon status`).');
}

async function invoke(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  assertServing(ctx);
  const body = assertObject(await readJson(req), 'The tool envelope', '{"tool": "svc_status", "params": {}}');
  await ctx.beforeTool();
  const result = await invokeTool(ctx.tools, body.tool, body.params, ctx.toolContext);
  sendJson(res, 200, { ok: true, result: result ?? null });
}

async function hook(ctx: RouteContext, req: IncomingMessage & { params?: Record<string, string> }, res: ServerResponse): Promise<void> {
  const name = req.params?.name ?? '';
  if (!(HOOK_NAMES as readonly string[]).includes(name)) {
    throw new SvcError('not_found', `Unknown event ${JSON.stringify(name)}.`, `Events: ${HOOK_NAMES.join(', ')}.`);
  }
  const body = (await readJson(req)) ?? {};
  const payload = assertObject(body, `The ${name} event payload`, '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001"}');
  await ctx.onHook(name as HookName, payload, pluginOf(req) ?? undefined);
  sendJson(res, 202, { ok: true });
}

async function waitSpawn(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  assertServing(ctx);
  const plugin = pluginOf(req);
  if (!plugin) throw new SvcError('validation_error', 'GET /v1/spawns/wait needs the header x-svc-plugin naming the plugin.', 'Send `x-svc-plugin: <plugin id>`, for example `x-svc-plugin: svc`.');
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
  const parsed = ResultBody.safeParse(await readJson(req));
  if (!parsed.success) {
    throw new SvcError('validation_error', `Invalid spawn result for ${id}:\n${formatIssues(parsed.error.issues)}`, 'Send {"ok": true, "sessionKey": "..."} or {"ok": false, "error": "...", "reason": "..."}.');
  }
  const outcome = ctx.spawns.settle(id, parsed.data);
  if (outcome === 'unknown') throw new SvcError('not_found', `No spawn ${JSON.stringify(id)} is waiting for a result.`, 'Post results only for spawns handed out by GET /v1/spawns/wait of this daemon.');
  ctx.log.info('spawn.result', { id, ok: parsed.data.ok, reason: parsed.data.reason, repeated: outcome === 'already' });
  sendJson(res, 200, { ok: true });
}

/** The most a change long-poll is held (below the idle limit of a connection). */
const MAX_CHANGE_WAIT_MS = 25_000;

async function waitChanges(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://svc').searchParams;
  const after = Number(query.get('after') ?? -1);
  const waitMs = Number(query.get('waitMs') ?? MAX_CHANGE_WAIT_MS);
  if (!Number.isInteger(after) || !Number.isFinite(waitMs) || waitMs < 0) {
    throw new SvcError('validation_error', `GET /v1/tasks/changes takes whole numbers after and waitMs (found after=${query.get('after')}, waitMs=${query.get('waitMs')}).`, 'Ask GET /v1/tasks/changes?after=<last version>&waitMs=20000.');
  }
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const version = await ctx.waitChanges(after, Math.min(waitMs, MAX_CHANGE_WAIT_MS), gone.signal);
  if (!res.destroyed) sendJson(res, 200, { ok: true, version });
}

function toStatusQuery(req: IncomingMessage): Status | undefined {
  const value = new URL(req.url ?? '/', 'http://svc').searchParams.get('status');
  if (value === null || value === '') return undefined;
  if ((STATUSES as readonly string[]).includes(value)) return value as Status;
  throw new SvcError('validation_error', `Unknown status ${JSON.stringify(value)}.`, `Use one of: ${STATUSES.join(', ')}.`);
}

function pluginOf(req: IncomingMessage): string | null {
  const value = req.headers['x-svc-plugin'];
  const id = (Array.isArray(value) ? value[0] : value)?.trim();
  return id && id.length <= 128 ? id : null;
}
