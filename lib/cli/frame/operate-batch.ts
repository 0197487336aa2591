import { existsSync } from 'node:fs';
import { isSvcError, type SvcError, toSvcError } from '../../core/errors.js';
import { requestDaemon, toDaemonError } from '../../daemon/instance/client.js';
import { toPaths } from '../../store/disk/paths.js';
import type { Context } from './context.js';
import { NOT_REACHED, toSessionHeader, toTimeoutMs, toUnknownOutcome } from './operate.js';
import { ROUTES } from '../../net/protocol/routes.js';

/** One call of a batch: the params of the tool and the request id it is sent under. */
export interface BatchCall {
  params: Record<string, unknown>;
  requestId: string;
}

/**
 * A call's outcome in a batch: its result, or the error its own call would have thrown; undefined
 * when the daemon left it (stopping, or without the command line's tools), to be made on its own.
 */
export type BatchOutcome = { ok: true; result: unknown } | { ok: false; error: SvcError } | undefined;

/**
 * Sends several calls of one tool to a running daemon in one request (`POST /v1/tool/batch`, docs/daemon.md):
 * the daemon runs them as it runs each call, and each answer is the one its own call would have had.
 * Undefined when no daemon takes the batch (none runs, it is stopping, or it is older than the
 * route): each call is then made on its own (`operate`).
 */
export async function operateBatch(
  ctx: Context,
  tool: string,
  calls: readonly BatchCall[],
): Promise<BatchOutcome[] | undefined> {
  const { socket } = toPaths(ctx.root);
  if (!existsSync(socket)) return undefined;
  let reply: { status: number; body: unknown };
  try {
    reply = await requestDaemon(
      socket,
      { ...ROUTES.toolBatch, body: { tool, batch: calls } },
      { timeoutMs: toTimeoutMs(ctx.io.env), headers: toSessionHeader(ctx) },
    );
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? '';
    if (isSvcError(err, 'unavailable') && NOT_REACHED.has(cause)) return undefined;
    const error =
      isSvcError(err, 'unavailable') && cause !== 'EACCES'
        ? toUnknownOutcome(err, ctx.requestBase ?? calls[0]!.requestId)
        : toSvcError(err);
    return calls.map(() => ({ ok: false, error }));
  }
  const body = reply.body as { ok?: boolean; results?: unknown; error?: { code?: string } } | null;
  if (
    reply.status === 200 &&
    body?.ok === true &&
    Array.isArray(body.results) &&
    body.results.length === calls.length
  ) {
    return (body.results as { status: number; ok?: boolean; result?: unknown; error?: { code?: string } }[]).map(
      (answer) => toOutcome(tool, answer),
    );
  }
  if (reply.status === 503 || (reply.status === 404 && body?.error?.code === 'not_found')) return undefined;
  const error = toDaemonError(reply.status, reply.body);
  return calls.map(() => ({ ok: false, error }));
}

// --- internal ---

/** A call's answer as `operate` takes the answer of its own request. */
function toOutcome(
  tool: string,
  answer: { status: number; ok?: boolean; result?: unknown; error?: { code?: string } },
): BatchOutcome {
  if (answer.status === 200 && answer.ok === true) return { ok: true, result: answer.result };
  if (answer.status === 503 || (answer.error?.code === 'unknown_tool' && tool.startsWith('operator_')))
    return undefined;
  return { ok: false, error: toDaemonError(answer.status, answer) };
}
