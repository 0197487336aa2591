import { existsSync } from 'node:fs';
import { isSvcError } from '../core/errors.js';
import { requestDaemon, toDaemonError } from '../daemon/client.js';
import { toPaths } from '../store/paths.js';
import type { ToolDef } from '../tools/registry.js';
import { loadStore, type Context } from './context.js';

/** Where the tools of a call come from when no daemon runs (loaded only then). */
export type ToolSource = () => Promise<readonly ToolDef[]>;

/** The command line's own calls (`operator_task_*`), loaded with the store when no daemon runs. */
export const OPERATOR_SOURCE: ToolSource = async () => (await import('../tools/operator.js')).OPERATOR_TOOLS;

/**
 * Runs a tool call: through a running daemon's socket (the command never loads the store, zod or
 * YAML), else in this process on the files, with the same handler. A daemon that is stopping, or
 * too old to know the call, leaves it to this process too.
 */
export async function operate<T>(ctx: Context, tool: string, params: Record<string, unknown>, local: ToolSource = OPERATOR_SOURCE): Promise<T> {
  const remote = await invokeRemote(ctx, tool, params);
  if (remote.answered) return remote.result as T;
  const [tools, { invokeTool }] = await Promise.all([local(), import('../tools/registry.js'), loadStore()]);
  return (await invokeTool(tools, tool, params, { store: ctx.store() })) as T;
}

// --- internal ---

/** Causes of a failed request that mean nothing reached a daemon (so running the call here is safe). */
const NOT_REACHED = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK']);

async function invokeRemote(ctx: Context, tool: string, params: Record<string, unknown>): Promise<{ answered: true; result: unknown } | { answered: false }> {
  const { socket } = toPaths(ctx.root);
  if (!existsSync(socket)) return { answered: false };
  let reply: { status: number; body: unknown };
  try {
    reply = await requestDaemon(socket, 'POST', '/v1/tool/invoke', { tool, params }, { timeoutMs: 120_000 });
  } catch (err) {
    if (isSvcError(err, 'unavailable') && NOT_REACHED.has((err.cause as { code?: string } | undefined)?.code ?? '')) return { answered: false };
    throw err;
  }
  const body = reply.body as { ok?: boolean; result?: unknown; error?: { code?: string } } | null;
  if (reply.status === 200 && body?.ok === true) return { answered: true, result: body.result };
  if (reply.status === 503 || (body?.error?.code === 'unknown_tool' && tool.startsWith('operator_'))) return { answered: false };
  throw toDaemonError(reply.status, reply.body);
}
