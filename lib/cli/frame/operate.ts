import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isSvcError, SvcError, toSvcError } from '../../core/errors.js';
import { assertRequestId, READ_ONLY_TOOLS, REQUEST_ID_HEADER, RUN_SESSION_HEADER } from '../../core/request-id.js';
import { requestDaemon, toDaemonError } from '../../daemon/instance/client.js';
import { toPaths } from '../../store/disk/paths.js';
import type { ToolDef } from '../../tools/registry.js';
import { loadStore, type Context } from './context.js';
import { ROUTES } from '../../net/protocol/routes.js';

/** Where the tools of a call come from when no daemon runs (loaded only then). */
export type ToolSource = () => Promise<readonly ToolDef[]>;

/** The command line's own calls (`operator_task_*`), loaded with the store when no daemon runs. */
export const OPERATOR_SOURCE: ToolSource = async () => (await import('../../tools/operator.js')).OPERATOR_TOOLS;

/** How long a call waits for the daemon's answer unless `SVC_REQUEST_TIMEOUT_MS` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Runs a tool call: through a running daemon's socket (the command never loads the store, zod or
 * YAML), else in this process on the files, with the same handler. A daemon that is stopping, or
 * too old to know the call, leaves it to this process too. A change is sent under a request id
 * (`--request-id`, else a new one): when the daemon may have got it but did not answer, the error
 * names the id, and a rerun with it gets the first answer instead of applying the change twice,
 * with or without a daemon (docs/daemon.md).
 */
export async function operate<T>(ctx: Context, tool: string, params: Record<string, unknown>): Promise<T> {
  return operateWith<T>(ctx, { tool, params }, OPERATOR_SOURCE);
}

/** One tool call: the tool's name and its parameters. */
export interface ToolCall {
  tool: string;
  params: Record<string, unknown>;
}

/** `operate`, with the tools of `local` when no daemon answers (instead of the operator's). */
export async function operateWith<T>(ctx: Context, { tool, params }: ToolCall, local: ToolSource): Promise<T> {
  const requestId = READ_ONLY_TOOLS.has(tool) ? undefined : assertRequestId(ctx.requestId ?? randomUUID());
  const remote = await invokeRemote(ctx, { tool, params }, requestId);
  if (remote.answered) {
    if (remote.replayed && requestId !== undefined) (ctx.replayed ??= []).push(requestId);
    return remote.result as T;
  }
  const [tools, { invokeTool }] = await Promise.all([local(), import('../../tools/registry.js'), loadStore()]);
  // No daemon: this process tells whether it is part of a run recorded in data/runs/ (asked by the operator's decisions
  // only).
  const runCaller = async () =>
    (await import('../../adapters/run-of.js')).findRecordedRunOf(process.pid, toPaths(ctx.root).runs);
  const run = () => invokeTool(tools, { tool, params }, { store: ctx.store(), runCaller });
  if (requestId === undefined || ctx.requestId === undefined) return (await run()) as T;
  return (await runOnce(ctx, { key: requestId, tool, params }, run)) as T;
}

/** A read: through a running daemon like `operate`, else `read` in this process (no store, no locks loaded). */
export async function operateRead<T>(ctx: Context, call: ToolCall, read: () => Promise<T>): Promise<T> {
  const remote = await invokeRemote(ctx, call, undefined);
  return remote.answered ? (remote.result as T) : read();
}

// --- internal ---

/** Causes of a failed request that mean nothing reached a daemon (so running the call here is safe). */
export const NOT_REACHED = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK']);

async function invokeRemote(
  ctx: Context,
  { tool, params }: ToolCall,
  requestId: string | undefined,
): Promise<{ answered: true; result: unknown; replayed: boolean } | { answered: false }> {
  const { socket } = toPaths(ctx.root);
  if (!existsSync(socket)) return { answered: false };
  let reply: { status: number; body: unknown; headers: Record<string, string | string[] | undefined> };
  try {
    const headers: Record<string, string> = {
      ...(requestId === undefined ? {} : { [REQUEST_ID_HEADER]: requestId }),
      ...toSessionHeader(ctx),
    };
    reply = await requestDaemon(
      socket,
      { ...ROUTES.toolInvoke, body: { tool, params } },
      { timeoutMs: toTimeoutMs(ctx.io.env), headers },
    );
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? '';
    if (isSvcError(err, 'unavailable') && NOT_REACHED.has(cause)) return { answered: false };
    if (requestId !== undefined && isSvcError(err, 'unavailable') && cause !== 'EACCES')
      throw toUnknownOutcome(err, ctx.requestBase ?? requestId);
    throw err;
  }
  const body = reply.body as { ok?: boolean; result?: unknown; error?: { code?: string } } | null;
  if (reply.status === 200 && body?.ok === true)
    return { answered: true, result: body.result, replayed: reply.headers['idempotent-replayed'] === 'true' };
  if (reply.status === 503 || (body?.error?.code === 'unknown_tool' && tool.startsWith('operator_')))
    return { answered: false };
  throw toDaemonError(reply.status, reply.body);
}

/**
 * Runs a change in this process under its request id: once, and a rerun gets the first answer (of this process or a
 * daemon).
 */
async function runOnce(
  ctx: Context,
  call: { key: string; tool: string; params: unknown },
  run: () => Promise<unknown>,
): Promise<unknown> {
  const { answerOnce } = await import('../../store/records/request-memory.js');
  const answer = await answerOnce(ctx.root, call, {
    act: async () => {
      try {
        return { status: 200, body: { ok: true, result: (await run()) ?? null } };
      } catch (err) {
        const error = toSvcError(err);
        return { status: error.status, body: error.toJSON() };
      }
    },
  });
  const body = answer.body as { ok?: boolean; result?: unknown } | null;
  if (answer.repeated && answer.status === 200) (ctx.replayed ??= []).push(call.key);
  if (answer.status === 200 && body?.ok === true) return body.result;
  throw toDaemonError(answer.status, answer.body);
}

/** The run session header of a command an agent run started (its `SVC_SESSION_ID`), when it has one. */
export function toSessionHeader(ctx: Context): Record<string, string> {
  const session = /^[\x21-\x7e]{1,200}$/.test(ctx.io.env.SVC_SESSION_ID ?? '') ? ctx.io.env.SVC_SESSION_ID : undefined;
  return session ? { [RUN_SESSION_HEADER]: session } : {};
}

/** The error of a change the daemon may have got but did not answer: it names the request id to rerun with. */
export function toUnknownOutcome(err: SvcError, requestId: string): SvcError {
  return new SvcError(
    'unavailable',
    `${err.message.replace(/\.$/, '')}: the daemon may or may not have applied this; ` +
      `run the same command again with \`--request-id ${requestId}\` to find out safely.`,
    {
      hint:
        'The rerun returns the original result when the change was applied, and applies ' +
        'it once when it was not. `svc daemon status` tells whether the daemon answers.',
      cause: err,
    },
  );
}

/** How long a call waits for the daemon (`SVC_REQUEST_TIMEOUT_MS`, else `DEFAULT_TIMEOUT_MS`). */
export function toTimeoutMs(env: Record<string, string | undefined>): number {
  const value = Number(env.SVC_REQUEST_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}
