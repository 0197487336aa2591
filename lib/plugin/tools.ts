import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError, toSvcError } from '../core/errors.js';
import { findPackageRoot } from '../core/package-root.js';
import type { AgentTool, ToolContext, ToolFactory, ToolResult } from './api.js';
import { invokeOverSocket } from './socket.js';

/** A tool as the build wrote it from its zod schema (`npm run build` writes `dist/plugin/tools.json`). */
export interface ToolSchema {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Where the build writes the tools' JSON schemas. */
export function toolSchemasPath(): string {
  return join(findPackageRoot(), 'dist', 'plugin', 'tools.json');
}

/** Reads the generated tool schemas; a missing file means the package was not built. */
export function loadToolSchemas(path = toolSchemasPath()): ToolSchema[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new SvcError('internal', `The svc plugin's tool schemas are missing (${path}).`, {
      hint: 'Build the package: `npm run build` in the svc directory.',
      cause: err,
    });
  }
  return JSON.parse(text) as ToolSchema[];
}

/**
 * One tool factory per svc tool: each call forwards to the daemon's `POST /v1/tool/invoke` with
 * `actor` set to the calling agent (when the gateway names it).
 */
export function createToolFactories(
  schemas: readonly ToolSchema[],
  socket: () => string,
): Array<{ name: string; factory: ToolFactory }> {
  return schemas.map((schema) => ({
    name: schema.name,
    factory: (ctx: ToolContext) => toAgentTool(schema, ctx, socket),
  }));
}

/** An svc result as a tool result: JSON text for the model; svc's result nested under `result` in `details`. */
export function toToolResult(tool: string, result: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], details: { tool, result } };
}

/** An svc error as the Error a tool throws: `code: message` and a `hint:` line. */
export function toToolError(err: unknown): Error {
  const svc = toSvcError(err);
  const error = new Error(`${svc.code}: ${svc.message}${svc.hint ? `\nhint: ${svc.hint}` : ''}`, { cause: svc });
  return Object.assign(error, { code: svc.code });
}

// --- internal ---

function toAgentTool(schema: ToolSchema, ctx: ToolContext, socket: () => string): AgentTool {
  return {
    name: schema.name,
    label: schema.name,
    description: schema.description,
    parameters: schema.inputSchema,
    // The spawn prompt tells the agent to call svc_task_complete by name: keep the tools out of Tool Search's catalog.
    catalogMode: 'direct-only',
    async execute(_toolCallId, params, signal) {
      const withActor = ctx.agentId ? { ...asObject(params), actor: ctx.agentId } : asObject(params);
      try {
        return toToolResult(
          schema.name,
          await invokeOverSocket(socket(), { tool: schema.name, params: withActor }, signal),
        );
      } catch (err) {
        throw toToolError(err);
      }
    },
  };
}

function asObject(params: unknown): Record<string, unknown> {
  return params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
}
