import type { Readable, Writable } from 'node:stream';
import { Server, type CallToolResult, type Tool } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { describeError, toSvcError } from '../core/errors.js';
import { createStore } from '../store/commit/store.js';
import { TOOLS } from '../tools/index.js';
import { toToolManifest } from '../tools/manifest.js';
import { invokeTool, type ToolContext, type ToolDef } from '../tools/registry.js';

/** Options of `startMcpServer`: the root the tools work on, and the streams (the process's by default). */
export interface McpServerOptions {
  root: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Reported as the server version in the handshake. */
  version?: string;
  /** Out-of-band errors (never written to stdout, which carries the protocol only). */
  onError?: (error: Error) => void;
  /** The agent run this server serves (an agent runtime's, docs/agent-runtimes.md): its calls' defaults. */
  run?: RunBinding;
}

/**
 * A run an MCP server is bound to: a call that omits `actor` gets the run's agent, and a call on the run's task that
 * omits `sessionId` gets the run's session.
 */
export interface RunBinding {
  taskId: string;
  sessionId: string;
  agent: string;
}

/** A running MCP stdio server. */
export interface McpServerHandle {
  /** Settles when the connection ends (stdin closed, or `close()`). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the `svc_*` tools over MCP on stdio. The tools run directly on the store of `root`: every
 * write follows the store's locking commit protocol, so this is safe beside a running daemon.
 */
export function startMcpServer(options: McpServerOptions): McpServerHandle {
  const onError = options.onError;
  const onEventError = onError
    ? (err: unknown, _pending: number, spooledTo?: string) =>
        onError(
          new Error(
            `a change was made, but its event could not be appended to the event log: ` +
              `${describeError(err)}${spooledTo ? ` (kept in ${spooledTo} and appended later)` : ''}`,
          ),
        )
    : undefined;
  const ctx: ToolContext = {
    store: createStore({ root: options.root, spoolEvents: true, ...(onEventError ? { onEventError } : {}) }),
  };
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const transport = new ClosingTransport(options.stdin, options.stdout, () => markClosed());
  const served = serveStdio(
    () => createToolServer(TOOLS, ctx, { version: options.version ?? '0.0.0', run: options.run }),
    {
      transport,
      ...(options.onError ? { onerror: options.onError } : {}),
    },
  );
  return {
    closed,
    async close() {
      await served.close();
      markClosed();
    },
  };
}

/** One MCP server instance listing `tools` (with their generated JSON schemas) and calling them on `ctx`. */
export function createToolServer(
  tools: readonly ToolDef[],
  ctx: ToolContext,
  served: { version: string; run?: RunBinding | undefined },
): Server {
  const server = new Server({ name: 'svc', version: served.version }, { capabilities: { tools: {} } });
  const listed = toToolManifest(tools).map((entry) => ({
    ...entry,
    inputSchema: entry.inputSchema as Tool['inputSchema'],
  }));
  server.setRequestHandler('tools/list', () => ({ tools: listed }));
  server.setRequestHandler('tools/call', async (request) => {
    const params = served.run ? withRunDefaults(tools, request.params, served.run) : request.params;
    const result = await callTool(tools, params, ctx);
    return server.projectCallToolResult(result, undefined);
  });
  return server;
}

/** Runs one tool and shapes the answer: structured content plus a text rendering, or a tool error. */
export async function callTool(
  tools: readonly ToolDef[],
  { name, arguments: args }: { name: string; arguments?: unknown },
  ctx: ToolContext,
): Promise<CallToolResult> {
  try {
    const result = await invokeTool(tools, { tool: name, params: args ?? {} }, ctx);
    return {
      content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
      structuredContent: result as Record<string, unknown>,
    };
  } catch (err) {
    const error = toSvcError(err);
    const text = `${error.code}: ${error.message}${error.hint ? `\nhint: ${error.hint}` : ''}`;
    return { content: [{ type: 'text', text }], structuredContent: { ...error.toJSON() }, isError: true };
  }
}

// --- internal ---

/** A call's arguments with the run's `actor` and (on the run's own task) `sessionId` where the tool takes them. */
function withRunDefaults(
  tools: readonly ToolDef[],
  call: { name: string; arguments?: unknown },
  run: RunBinding,
): { name: string; arguments?: unknown } {
  const args = call.arguments ?? {};
  const tool = tools.find((t) => t.name === call.name);
  const shape = (tool?.params as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (!shape || typeof args !== 'object' || args === null || Array.isArray(args)) return call;
  const filled: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  if ('actor' in shape && filled.actor === undefined) filled.actor = run.agent;
  if ('sessionId' in shape && filled.sessionId === undefined && filled.taskId === run.taskId)
    filled.sessionId = run.sessionId;
  return { ...call, arguments: filled };
}

/** The SDK's stdio transport, telling us when it closes (stdin ended, or the server closed it). */
class ClosingTransport extends StdioServerTransport {
  readonly #onClosed: () => void;

  constructor(stdin: Readable | undefined, stdout: Writable | undefined, onClosed: () => void) {
    super(stdin, stdout);
    this.#onClosed = onClosed;
  }

  override async close(): Promise<void> {
    await super.close();
    this.#onClosed();
  }
}
