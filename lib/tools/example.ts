import type * as z from 'zod';
import type { ToolDef } from './registry.js';

/**
 * The params of a tool with only its required parameters, each with a placeholder of its type
 * (`"..."`, `[]`, the first value of an enum): the smallest call a hint can show.
 */
export function toRequiredExample(tool: ToolDef): Record<string, unknown> {
  const shape = (tool.params as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    if (!schema.safeParse(undefined).success) out[key] = toPlaceholder(schema);
  }
  return out;
}

// --- internal ---

function toPlaceholder(schema: z.ZodType): unknown {
  const def = (schema as unknown as { def: { type: string; entries?: Record<string, unknown> } }).def;
  switch (def.type) {
    case 'array':
      return [];
    case 'number':
      return 0;
    case 'boolean':
      return true;
    case 'object':
    case 'record':
      return {};
    case 'enum':
      return Object.values(def.entries ?? {})[0] ?? '...';
    default:
      return '...';
  }
}
