import * as z from 'zod';
import { TOOLS } from './index.js';
import type { ToolDef } from './registry.js';

/** A tool as MCP and the plugin manifest describe it: name, description and the JSON schema of its params. */
export interface ToolManifestEntry {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * The JSON schemas of the tools, generated from their zod schemas (one source for the daemon, MCP and
 * the plugin). Input view: optional parameters are not required; unknown ones are refused
 * (`additionalProperties: false`).
 */
export function toToolManifest(tools: readonly ToolDef[] = TOOLS): ToolManifestEntry[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: toInputSchema(tool.params),
  }));
}

/**
 * The JSON schema of one params schema, without the `$schema` dialect line (the plugin host validates with its own).
 */
export function toInputSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json;
}
