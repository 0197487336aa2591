// What `codex exec --json` prints, one JSON object a line, in svc's words. Codex reports tokens once, at the end of
// the turn, as the thread's total: a resumed thread's total includes its earlier runs, so the total it had before
// the run (`codexBaseline`) is taken off.
import type { Usage } from '../../core/usage.js';
import type { RunEvent, StreamParser } from './runtime.js';

/** Codex's token counts (`turn.completed.usage`, `token_count.info.total_token_usage`). */
export interface CodexTokens {
  input_tokens?: number;
  cached_input_tokens?: number;
  cache_write_input_tokens?: number;
  output_tokens?: number;
}

/** A parser of one run's stream; `baseline` is the resumed thread's total before the run. */
export function codexParser(baseline: CodexTokens = {}): StreamParser {
  const started = new Set<string>();
  return {
    line(text) {
      const event = parseLine(text);
      if (!event) return [];
      return eventsOf(event, { started, baseline });
    },
  };
}

/** svc's usage of a run from Codex's totals after and before it: input without the cache reads and writes. */
export function toCodexUsage(after: CodexTokens, before: CodexTokens = {}): Usage {
  const count = (key: keyof CodexTokens) => Math.max(0, num(after[key]) - num(before[key]));
  const cacheRead = count('cached_input_tokens');
  const cacheWrite = count('cache_write_input_tokens');
  return {
    inputTokens: Math.max(0, count('input_tokens') - cacheRead - cacheWrite),
    outputTokens: count('output_tokens'),
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    costUsd: null,
  };
}

// --- internal ---

type Json = Record<string, unknown>;

/** A refusal of a tool call by Codex's approval policy or sandbox, as its messages word it. */
const DENIED = /requires approval|approval policy|rejected by|not permitted|denied/i;

function eventsOf(event: Json, run: { started: Set<string>; baseline: CodexTokens }): RunEvent[] {
  switch (event.type) {
    case 'thread.started':
      return typeof event.thread_id === 'string' ? [{ kind: 'session', id: event.thread_id }] : [];
    case 'item.started':
      return callOf(record(event.item), run.started);
    case 'item.completed':
      return [...callOf(record(event.item), run.started), ...completedOf(record(event.item))];
    case 'error':
      return [{ kind: 'error', message: str(event.message), retrying: /^Reconnecting\b/i.test(str(event.message)) }];
    case 'turn.completed':
      return [
        { kind: 'usage', usage: toCodexUsage(record(event.usage), run.baseline) },
        { kind: 'result', ok: true },
      ];
    case 'turn.failed':
      return [{ kind: 'result', ok: false, message: str(record(event.error).message) || 'the turn failed' }];
    default:
      return [];
  }
}

/** A tool call, once per item: MCP calls, shell commands, file changes, web searches. */
function callOf(item: Json, started: Set<string>): RunEvent[] {
  const call = toolOf(item);
  const id = str(item.id);
  if (!call || started.has(id)) return [];
  started.add(id);
  return [{ kind: 'tool_call', ...call }];
}

function completedOf(item: Json): RunEvent[] {
  switch (item.type) {
    case 'agent_message':
      return [{ kind: 'text', text: str(item.text) }];
    case 'error':
      return [{ kind: 'error', message: str(item.message) }];
    case 'mcp_tool_call':
      return mcpResultOf(item);
    case 'command_execution':
      if (item.status === 'declined')
        return [
          { kind: 'denied', tool: 'exec_command', message: `declined: ${str(item.command)}` },
          resultOf(item, { ok: false, text: 'declined' }),
        ];
      return [resultOf(item, { ok: item.exit_code === 0, text: str(item.aggregated_output) })];
    case 'file_change':
      return [resultOf(item, { ok: item.status === 'completed', text: str(item.status) })];
    default:
      return [];
  }
}

function mcpResultOf(item: Json): RunEvent[] {
  const tool = toolOf(item)?.tool ?? 'mcp';
  const error = str(record(item.error).message);
  if (error && DENIED.test(error)) {
    return [
      { kind: 'denied', tool, message: error },
      { kind: 'tool_result', tool, ok: false, text: error },
    ];
  }
  const result = record(item.result);
  const text = Array.isArray(result.content) ? result.content.map((part) => str(record(part).text)).join('\n') : '';
  const ok = item.status !== 'failed' && !error && result.is_error !== true && result.isError !== true;
  return [{ kind: 'tool_result', tool, ok, text: error || text }];
}

function resultOf(item: Json, outcome: { ok: boolean; text: string }): RunEvent {
  return { kind: 'tool_result', tool: toolOf(item)?.tool ?? str(item.type), ...outcome };
}

/** The tool of an item: svc's tools by their own names, other MCP tools as `mcp__<server>__<tool>`. */
function toolOf(item: Json): { tool: string; args: string } | null {
  switch (item.type) {
    case 'mcp_tool_call': {
      const server = str(item.server);
      const tool = server === 'svc' ? str(item.tool) : `mcp__${server}__${str(item.tool)}`;
      return { tool, args: JSON.stringify(item.arguments ?? {}) };
    }
    case 'command_execution':
      return { tool: 'exec_command', args: JSON.stringify({ cmd: item.command }) };
    case 'file_change':
      return { tool: 'apply_patch', args: JSON.stringify(item.changes ?? []) };
    case 'web_search':
      return { tool: 'web_search', args: JSON.stringify({ query: item.query }) };
    default:
      return null;
  }
}

function parseLine(text: string): Json | null {
  if (!text.trimStart().startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
