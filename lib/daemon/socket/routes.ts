import type { IncomingMessage, ServerResponse } from 'node:http';
import polka, { type Middleware, type Request } from 'polka';
import { SvcError } from '../../core/errors.js';
import { formatIssues } from '../../core/task.js';
import type { Status } from '../../core/status.js';
import type { TaskFilter } from '../../store/listing/task-filter.js';
import type { RunCaller, ToolContext, ToolDef } from '../../tools/registry.js';
import { assertObject, queryOf, readJson, route, sendError, sendJson, type Handler } from '../http/exchange.js';
import {
  HOOK_EXAMPLES,
  pluginOf,
  RESULT_EXAMPLE,
  ResultBody,
  toFilterQuery,
  toStatusQuery,
  toWebPort,
  WEB_EXAMPLE,
} from './requests.js';
import type { LongPollBudgets } from '../http/long-polls.js';
import type { DaemonLog } from '../instance/log.js';
import { assertServing, invoke, invokeBatch, type InvokeContext } from './invoke.js';
import type { SpawnQueue } from '../scheduling/spawn-queue.js';
import {
  describeRoutes,
  HEADERS,
  HOOK_NAMES,
  ROUTES,
  toRouteLabel,
  type HookName,
  type RouteSpec,
} from '../../net/protocol/routes.js';
import type {
  HealthzBody,
  OkBody,
  SchedulerResponse,
  SpawnBody,
  SpawnStopBody,
  TaskChangesResponse,
  TasksResponse,
  WebAddress,
} from '../../net/protocol/bodies.js';
import type { StatusBody } from '../../net/protocol/status.js';

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
  /**
   * Waits until the task change counter passes `after` (or `waitMs` passes, or the client goes); resolves with the
   * counter.
   */
  waitChanges: (after: number, waitMs: number, signal: AbortSignal) => Promise<number>;
  /**
   * `svc task list` served from the index: the entries of one status, or all, that pass the filter, and the invalid
   * files.
   */
  listTasks: (statuses: readonly Status[] | undefined, filter: TaskFilter) => Promise<Omit<TasksResponse, 'ok'>>;
  /** `svc web`: opens the web board (once) and answers where it listens and its token. */
  openWeb: (port: number | undefined) => Promise<WebAddress>;
  /** `svc scheduler run`: one tick now, or the plan of one without acting. */
  scheduler: { tick: () => Promise<unknown[]>; dryRun: () => Promise<unknown[]> };
  /** `POST /v1/notify/<action>`: `svc notify retry` and `svc notify test` (docs/notifications.md). */
  notify: Handler;
  /** `GET /metrics`: the Prometheus text of the daemon's metrics (docs/metrics.md). */
  metrics: Handler;
}

/** Builds the request handler: every route of the route table in docs/daemon.md, every failure in the error shape. */
export function createRoutes(ctx: RouteContext): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = (err: SvcError, req: IncomingMessage) =>
    ctx.log.error('request.failed', {
      method: req.method,
      url: req.url,
      code: err.code,
      message: err.message,
      cause: err.cause,
    });
  const wrap = (handler: Handler) => route(handler, fail) as unknown as Middleware;
  const app = polka({
    onError: (err, req, res) => sendError(res, err, { req, onFailure: fail }),
    onNoMatch: (req, res) =>
      sendError(res, new SvcError('not_found', `No route ${req.method} ${req.path}.`, `Routes: ${describeRoutes()}.`)),
  });
  const on = (spec: RouteSpec, handler: Handler) =>
    void (spec.method === 'GET' ? app.get(spec.path, wrap(handler)) : app.post(spec.path, wrap(handler)));
  on(ROUTES.healthz, (_req, res) => healthz(ctx, res));
  on(ROUTES.metrics, ctx.metrics);
  on(ROUTES.status, async (_req, res) => sendJson(res, 200, await ctx.status()));
  on(ROUTES.toolInvoke, (req, res) => invoke(ctx, { req, res }, (err) => fail(err, req)));
  on(ROUTES.toolBatch, (req, res) => invokeBatch(ctx, { req, res }, (err) => fail(err, req)));
  on(ROUTES.event, (req, res) => hook(ctx, req, res));
  on(ROUTES.spawnWait, (req, res) => waitSpawn(ctx, req, res));
  on(ROUTES.spawnResult, (req, res) => spawnResult(ctx, req, res));
  on(ROUTES.spawnStop, (req, res) => waitStop(ctx, req, res));
  on(ROUTES.taskChanges, (req, res) => waitChanges(ctx, req, res));
  on(ROUTES.tasks, async (req, res) =>
    sendJson(res, 200, {
      ok: true,
      ...(await ctx.listTasks(toStatusQuery(req), toFilterQuery(req))),
    } satisfies TasksResponse),
  );
  on(ROUTES.schedulerTick, async (_req, res) => {
    assertServing(ctx);
    return sendJson(res, 200, { ok: true, actions: await ctx.scheduler.tick() } satisfies SchedulerResponse);
  });
  on(ROUTES.web, async (req, res) => {
    assertServing(ctx);
    return sendJson(res, 200, {
      ok: true,
      ...(await ctx.openWeb(toWebPort(await readJson(req, WEB_EXAMPLE)))),
    } satisfies OkBody & WebAddress);
  });
  on(ROUTES.notify, ctx.notify);
  on(ROUTES.schedulerPlan, async (_req, res) =>
    sendJson(res, 200, { ok: true, actions: await ctx.scheduler.dryRun() } satisfies SchedulerResponse),
  );
  return (req, res) => void app.handler(req as Request, res, undefined as never);
}

// --- internal ---

function healthz(ctx: RouteContext, res: ServerResponse): void {
  if (!ctx.isStopping()) return sendJson(res, 200, { ok: true } satisfies HealthzBody);
  const error = new SvcError(
    'unavailable',
    'The svc daemon is shutting down.',
    'Wait for the supervisor to restart it, or run `svc daemon start`.',
  );
  sendJson(res, 503, { ...error.toJSON(), reason: 'stopping' });
}

async function hook(
  ctx: RouteContext,
  req: IncomingMessage & { params?: Record<string, string> },
  res: ServerResponse,
): Promise<void> {
  const name = req.params?.name ?? '';
  if (!(HOOK_NAMES as readonly string[]).includes(name)) {
    throw new SvcError('not_found', `Unknown event ${JSON.stringify(name)}.`, `Events: ${HOOK_NAMES.join(', ')}.`);
  }
  const example = HOOK_EXAMPLES[name as HookName];
  const body = (await readJson(req, example)) ?? {};
  const payload = assertObject(body, `The ${name} event payload`, example);
  await ctx.onHook(name as HookName, payload, pluginOf(req) ?? undefined);
  sendJson(res, 202, { ok: true } satisfies OkBody);
}

async function waitSpawn(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  assertServing(ctx);
  const plugin = pluginOf(req);
  if (!plugin)
    throw new SvcError(
      'validation_error',
      `${toRouteLabel(ROUTES.spawnWait)} needs the header ${HEADERS.plugin} naming the plugin.`,
      `Send \`${HEADERS.plugin}: <plugin id>\`, for example \`${HEADERS.plugin}: svc\`.`,
    );
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
  sendJson(res, 200, spawn satisfies SpawnBody);
}

async function spawnResult(
  ctx: RouteContext,
  req: IncomingMessage & { params?: Record<string, string> },
  res: ServerResponse,
): Promise<void> {
  const id = req.params?.id ?? '';
  const parsed = ResultBody.safeParse(await readJson(req, RESULT_EXAMPLE));
  if (!parsed.success) {
    throw new SvcError(
      'validation_error',
      `Invalid spawn result for ${id}:\n${formatIssues(parsed.error.issues)}`,
      `Send ${RESULT_EXAMPLE}.`,
    );
  }
  const outcome = ctx.spawns.settle(id, parsed.data);
  if (outcome === 'unknown')
    throw new SvcError(
      'not_found',
      `No spawn ${JSON.stringify(id)} is waiting for a result.`,
      `Post results only for spawns handed out by ${toRouteLabel(ROUTES.spawnWait)} of this daemon.`,
    );
  ctx.log.info('spawn.result', { id, ok: parsed.data.ok, reason: parsed.data.reason, repeated: outcome === 'already' });
  sendJson(res, 200, { ok: true } satisfies OkBody);
}

/** The most a change long-poll is held (below the idle limit of a connection). */
const MAX_CHANGE_WAIT_MS = 25_000;

/**
 * A plugin's wait on a run it took: `{stop: true}` once the daemon wants it ended, `{stop: false, known}` after the
 * hold.
 */
async function waitStop(
  ctx: RouteContext,
  req: IncomingMessage & { params?: Record<string, string> },
  res: ServerResponse,
): Promise<void> {
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const state = await ctx.spawns.waitStop(req.params?.id ?? '', ctx.spawnWaitMs, gone.signal);
  if (!res.destroyed)
    sendJson(res, 200, { ok: true, stop: state === 'stop', known: state !== 'unknown' } satisfies SpawnStopBody);
}

async function waitChanges(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const query = queryOf(req);
  const after = Number(query.get('after') ?? -1);
  const waitMs = Number(query.get('waitMs') ?? MAX_CHANGE_WAIT_MS);
  if (!Number.isInteger(after) || !Number.isFinite(waitMs) || waitMs < 0) {
    throw new SvcError(
      'validation_error',
      `${toRouteLabel(ROUTES.taskChanges)} takes whole numbers after and waitMs ` +
        `(found after=${query.get('after')}, waitMs=${query.get('waitMs')}).`,
      `Ask ${toRouteLabel(ROUTES.taskChanges)}?after=<last version>&waitMs=20000.`,
    );
  }
  ctx.longPolls.changes.take(res);
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const version = await ctx.waitChanges(after, Math.min(waitMs, MAX_CHANGE_WAIT_MS), gone.signal);
  if (!res.destroyed) sendJson(res, 200, { ok: true, version } satisfies TaskChangesResponse);
}
