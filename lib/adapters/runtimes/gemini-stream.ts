// Gemini CLI's `--output-format stream-json` (docs/agent-runtimes.md, "Gemini CLI"): one JSON object a line, of type
// `init`, `message`, `tool_use`, `tool_result`, `error` and `result`. Other types and fields are passed over.
import type { Usage } from '../../core/usage.js';
import { GEMINI_MCP_SERVER } from './gemini-invocation.js';
import type { RunEvent, StreamParser } from './runtime.js';

/** Tool errors that are the CLI's refusal: a tool left out under the approval mode, or one a policy denies. */
const DENIALS = new Set(['tool_not_registered', 'policy_violation']);

/** A notice of a request being tried again: not progress. */
const RETRYING = /\b(retry|retrying|reconnect(ing)?)\b/i;

/** A parser of one run's stream: it keeps each call's tool by its id, for the results. */
export function geminiParser(): StreamParser {
  const tools = new Map<string, string>();
  return {
    line(text) {
      const event = parseObject(text);
      if (!event) return [];
      switch (event.type) {
        case 'init':
          return [
            ...(str(event.session_id) ? [{ kind: 'session' as const, id: str(event.session_id)! }] : []),
            ...(str(event.model) ? [{ kind: 'model' as const, model: str(event.model)! }] : []),
          ];
        case 'message':
          return event.role === 'assistant' && str(event.content) ? [{ kind: 'text', text: str(event.content)! }] : [];
        case 'tool_use':
          return [toolCall(event, tools)];
        case 'tool_result':
          return toolResult(event, tools);
        case 'error':
          return errorOf(event);
        case 'result':
          return resultOf(event);
        default:
          return [];
      }
    },
  };
}

/** Gemini names MCP tools `mcp_<server>_<tool>`: svc's by their svc name, the others as the CLI names them. */
export function toSvcToolName(name: string): string {
  const prefix = `mcp_${GEMINI_MCP_SERVER}_`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

// --- internal ---

type Json = Record<string, unknown>;

function parseObject(text: string): Json | null {
  if (!text.trimStart().startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function toolCall(event: Json, tools: Map<string, string>): RunEvent {
  const tool = toSvcToolName(str(event.tool_name) ?? 'unknown');
  if (str(event.tool_id)) tools.set(str(event.tool_id)!, tool);
  return { kind: 'tool_call', tool, args: JSON.stringify(event.parameters ?? {}) };
}

function toolResult(event: Json, tools: Map<string, string>): RunEvent[] {
  const tool = tools.get(str(event.tool_id) ?? '') ?? 'unknown';
  const error = (event.error ?? {}) as Json;
  const message = str(error.message) ?? '';
  const ok = event.status === 'success';
  const events: RunEvent[] = [{ kind: 'tool_result', tool, ok, text: str(event.output) ?? message }];
  if (!ok && DENIALS.has(str(error.type) ?? '')) events.push({ kind: 'denied', tool, message: message || 'denied' });
  return events;
}

function errorOf(event: Json): RunEvent[] {
  const message = str(event.message) ?? 'unknown error';
  return [{ kind: 'error', message, ...(RETRYING.test(message) ? { retrying: true } : {}) }];
}

function resultOf(event: Json): RunEvent[] {
  const events: RunEvent[] = [];
  const stats = event.stats as Json | undefined;
  if (stats && typeof stats === 'object') {
    const model = mainModel(stats.models);
    events.push({ kind: 'usage', usage: usageOf(stats), ...(model ? { model } : {}) });
  }
  if (event.status === 'success') return [...events, { kind: 'result', ok: true }];
  const error = (event.error ?? {}) as Json;
  const message = str(error.message) ?? `the run ended with status ${String(event.status ?? 'unknown')}`;
  return [...events, { kind: 'result', ok: false, message }];
}

/** The model that took the most tokens (with "auto", a router model answers a side request first). */
function mainModel(models: unknown): string | undefined {
  if (!models || typeof models !== 'object') return undefined;
  const totals = Object.entries(models as Record<string, Json>).map(([name, stats]) => ({
    name,
    tokens: num(stats?.total_tokens),
  }));
  return totals.sort((a, b) => b.tokens - a.tokens)[0]?.name;
}

/** The run's totals: `input_tokens` counts the cached prompt too, so the cache reads are taken out. */
function usageOf(stats: Json): Usage {
  const cached = num(stats.cached);
  return {
    inputTokens: Math.max(0, num(stats.input_tokens) - cached),
    outputTokens: num(stats.output_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    costUsd: null,
  };
}
