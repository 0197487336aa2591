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
  const served = serveStdio(() => createToolServer(TOOLS, ctx, options.version ?? '0.0.0'), {
    transport,
    ...(options.onError ? { onerror: options.onError } : {}),
  });
  return {
    closed,
    async close() {
      await served.close();
      markClosed();
    },
  };
}

/** One MCP server instance listing `tools` (with their generated JSON schemas) and calling them on `ctx`. */
export function createToolServer(tools: readonly ToolDef[], ctx: ToolContext, version: string): Server {
  const server = new Server({ name: 'svc', version }, { capabilities: { tools: {} } });
  const listed = toToolManifest(tools).map((entry) => ({
    ...entry,
    inputSchema: entry.inputSchema as Tool['inputSchema'],
  }));
  server.setRequestHandler('tools/list', () => ({ tools: listed }));
  server.setRequestHandler('tools/call', async (request) => {
    const result = await callTool(tools, request.params, ctx);
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
