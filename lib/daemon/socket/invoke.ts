import type { IncomingMessage, ServerResponse } from 'node:http';
import { SvcError } from '../../core/errors.js';
import { assertRequestId } from '../../core/request-id.js';
import type { InvokeResponse } from '../../net/protocol/bodies.js';
import { ROUTES, toRouteLabel } from '../../net/protocol/routes.js';
import { invokeTool, type RunCaller, type ToolContext, type ToolDef } from '../../tools/registry.js';
import { assertObject, readJson, sendJson } from '../http/exchange.js';
import type { DaemonLog } from '../instance/log.js';
import { answerCall, sendOnce, toRequestId } from './request-once.js';

/** What the tool routes need from the daemon. */
export interface InvokeContext {
  tools: readonly ToolDef[];
  toolContext: ToolContext;
  /** The live agent run a request comes from, or null (`tools/operator-only.ts` refuses its decisions). */
  callerOf?: (req: IncomingMessage) => Promise<RunCaller | null>;
  isStopping: () => boolean;
  log: DaemonLog;
  /**
   * The tool context of one batch (its commits ask the scheduler for no tick), and `done`, called once it has run (one
   * tick for all).
   */
  batchContext?: () => { toolContext: ToolContext; done: () => void };
}

/** The most calls one `POST /v1/tool/batch` carries. */
export const MAX_BATCH_CALLS = 500;

const TOOL_EXAMPLE = '{"tool": "svc_status", "params": {}}';
const BATCH_EXAMPLE =
  '{"tool": "operator_task_promote", "batch": [{"params": {"taskId": ' +
  '"007"}, "requestId": "r1.1"}, {"params": {"taskId": "008"}}]}';

/** A request and the response it gets. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/** Refuses a new request while the daemon stops. */
export function assertServing(ctx: Pick<InvokeContext, 'isStopping'>): void {
  if (ctx.isStopping())
    throw new SvcError(
      'unavailable',
      'The svc daemon is shutting down and takes no new requests.',
      'Retry once it is back (`svc daemon status`).',
    );
}

/** A tool call; one with a request id (`Idempotency-Key`) runs once, and a repeat gets its first answer. */
export async function invoke(
  ctx: InvokeContext,
  { req, res }: Exchange,
  onFailure: (err: SvcError) => void,
): Promise<void> {
  assertServing(ctx);
  const key = toRequestId(req);
  const body = assertObject(await readJson(req, TOOL_EXAMPLE), 'The tool envelope', TOOL_EXAMPLE);
  const toolContext = toolContextOf(ctx, req);
  const run = () => invokeTool(ctx.tools, { tool: body.tool, params: body.params }, toolContext);
  if (key !== undefined)
    return sendOnce(res, {
      root: ctx.toolContext.store.paths.root,
      call: { key, tool: String(body.tool), params: body.params },
      run,
      onFailure,
    });
  sendJson(res, 200, { ok: true, result: (await run()) ?? null } satisfies InvokeResponse);
}

/**
 * Several calls of one tool in one request (`svc task promote <ids>...`): each runs as its own
 * `POST /v1/tool/invoke` would (the same handler and checks, its own request id, its own error),
 * all at once, so the store commits them together; the answer lists each call's outcome in order,
 * with the HTTP status its own request would have had. A failed call never fails the others.
 */
export async function invokeBatch(
  ctx: InvokeContext,
  { req, res }: Exchange,
  onFailure: (err: SvcError) => void,
): Promise<void> {
  assertServing(ctx);
  const body = assertObject(await readJson(req, BATCH_EXAMPLE), 'The batch envelope', BATCH_EXAMPLE);
  const calls = toCalls(body.batch);
  const batch = ctx.batchContext?.();
  const toolContext = toolContextOf(ctx, req, batch?.toolContext);
  const root = ctx.toolContext.store.paths.root;
  const results = await Promise.all(
    calls.map(async ({ params, requestId }) => {
      const run = () => invokeTool(ctx.tools, { tool: body.tool, params }, toolContext);
      const answer = await answerCall({
        root,
        call: requestId === undefined ? undefined : { key: requestId, tool: String(body.tool), params },
        run,
        onFailure,
      });
      return { status: answer.status, ...(answer.body as object), ...(answer.repeated ? { replayed: true } : {}) };
    }),
  ).finally(() => batch?.done());
  ctx.log.info('tool.batch', {
    tool: String(body.tool),
    calls: calls.length,
    failed: results.filter((result) => result.status !== 200).length,
  });
  sendJson(res, 200, { ok: true, results });
}

// --- internal ---

/** The tool context of a request: its caller is asked once, when a decision needs it. */
function toolContextOf(ctx: InvokeContext, req: IncomingMessage, base = ctx.toolContext): ToolContext {
  const { callerOf } = ctx;
  if (!callerOf) return base;
  let caller: Promise<RunCaller | null> | undefined;
  return { ...base, runCaller: () => (caller ??= callerOf(req)) };
}

/** The calls of a batch, checked before any runs: a bad envelope changes nothing. */
function toCalls(batch: unknown): { params: unknown; requestId: string | undefined }[] {
  if (!Array.isArray(batch) || batch.length === 0 || batch.length > MAX_BATCH_CALLS) {
    const found = Array.isArray(batch) ? `${batch.length} calls` : JSON.stringify(batch ?? null).slice(0, 40);
    throw new SvcError(
      'validation_error',
      `${toRouteLabel(ROUTES.toolBatch)} takes batch as a list of 1 ` +
        `to ${MAX_BATCH_CALLS} calls (found ${found}); nothing was run.`,
      `Send ${BATCH_EXAMPLE}.`,
    );
  }
  return batch.map((item: unknown) => {
    const call = assertObject(item, 'A call of the batch', BATCH_EXAMPLE);
    if (call.requestId !== undefined && typeof call.requestId !== 'string')
      throw new SvcError(
        'validation_error',
        `A call of the batch has requestId ${JSON.stringify(call.requestId)}, not a string; nothing was run.`,
        `Send ${BATCH_EXAMPLE}.`,
      );
    return {
      params: call.params,
      requestId: call.requestId === undefined ? undefined : assertRequestId(call.requestId),
    };
  });
}
