import type { ResponseUsage } from './claude-code-usage.js';

/** What the parser keeps across lines: the usage of each response, each tool call's name, the calls denied. */
export interface ParserState {
  usage: ResponseUsage;
  tools: Map<string, string>;
  denied: Set<string>;
}

/** A JSON object of the stream (a record with a string `type`). */
export type StreamMessage = Record<string, unknown> & { type: string };

/** `value` as a record, else an empty one. */
export function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `value` if it is a string, else undefined. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
